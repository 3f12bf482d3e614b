import { pdfText, plainText, type TextFileKind } from '../parse/fileText.js';
import type { PageAnalyzer } from '../focus/pageAnalysis.js';
import type { FocusRequest, PageAnalysis } from '../focus/pageAnalysisTypes.js';
import type { ExtractedLink, ParsedDoc } from '../parse/html.js';
import { textDigest } from '../parse/visibleText.js';
import { packText, type PackedText } from '../store/packedText.js';
import type { Mirror } from '../store/mirror.js';
import { hrefBetween } from '../url/localPath.js';
import { packOriginal, parseDocument, ReferenceMemo } from './documents.js';

/**
 * The per-document work that needs neither the catalogue nor the crawl's state: parsing, rendering
 * the offline copy and saving it. It runs in the document workers (documentPool.ts), off the crawl's
 * event loop; the crawl keeps everything that decides or records (admission, targets, outcomes).
 */

export interface PreparedLink extends ExtractedLink {
  /** The canonical URL the catalogue knows the target by; null when it has none (an unusable URL). */
  canonical: string | null;
}

export interface PreparedDocument {
  title: string | null;
  /** The page's visible text for the search index; null unless asked for, and for CSS. */
  text: PackedText | null;
  /** Digest of an HTML page's whitespace-normalised visible text (see visibleText.ts); null for CSS. */
  textDigest: string | null;
  links: PreparedLink[];
  /** The body deflated for the catalogue (the finishing pass rewrites from it); null unless asked for. */
  original: Buffer | null;
  /** A focused crawl's scores of an HTML page; absent otherwise. */
  focus?: PageAnalysis;
}

export interface PrepareRequest {
  kind: 'html' | 'css';
  body: Uint8Array;
  url: string;
  contentType: string | null;
  /** Whether to deflate the body for the catalogue: not when it came from there. */
  packOriginal: boolean;
  /** Whether to extract the visible text (for the search index). */
  withText?: boolean;
  /** Score the page against the crawl's template (HTML only). */
  focus?: FocusRequest;
}

export interface SaveRequest {
  /** Where the copy goes in the mirror. */
  localPath: string;
  /** Per link, in order: the mirror file its reference should point to, or null to keep it absolute. */
  written: (string | null)[];
}

/** Why a copy couldn't be saved: the file system's code, so the crawl can tell a bad name from a full disk. */
export interface SaveFailure {
  code: string;
  message: string;
}

/** The parsed documents of one worker, from prepare to save or discard. */
export class DocumentWork {
  private readonly parsed = new Map<number, ParsedDoc>();
  private readonly memo = new ReferenceMemo();

  /** `analyzer`: a focused crawl's, built from its template; null otherwise. */
  constructor(
    private readonly mirror: Mirror,
    private readonly analyzer: PageAnalyzer | null = null,
  ) {}

  prepare(ticket: number, req: PrepareRequest): PreparedDocument {
    const body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    const text = req.focus !== undefined && req.kind === 'html' ? this.analyzer?.collector() : undefined;
    // An HTML page's text is always read: a capture compares its digest with the one before.
    const doc = parseDocument(req.kind, body, req.url, req.contentType, req.kind === 'html', text);
    this.parsed.set(ticket, doc);
    const prepared: PreparedDocument = {
      title: doc.title,
      text: doc.text && req.withText ? packText(doc.text) : null,
      textDigest: doc.text ? textDigest(doc.text) : null,
      links: doc.links.map((l) => ({ ...l, canonical: this.memo.canonicalize(l.url) })),
      original: req.packOriginal ? packOriginal(body) : null,
    };
    if (text !== undefined) prepared.focus = this.analyzer!.analyze(text, doc.links, body, doc.charset, req.focus!);
    return prepared;
  }

  /** Renders the prepared document with its references and writes it; the document is forgotten either way. */
  save(ticket: number, req: SaveRequest): SaveFailure | null {
    const doc = this.take(ticket);
    let i = 0;
    const data = doc.render((link) => {
      const target = req.written[i++] ?? null;
      return target === null ? null : hrefBetween(req.localPath, target, link.fragment || undefined);
    });
    return this.write(req.localPath, data);
  }

  /** Writes a file of the mirror as it is. */
  write(localPath: string, data: Uint8Array): SaveFailure | null {
    try {
      this.mirror.writeSync(localPath, data);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (typeof err.code !== 'string') throw e;
      return { code: err.code, message: err.message };
    }
    return null;
  }

  /** The text of a file the search index keeps (see fileText.ts); null when it has none. */
  async fileText(kind: TextFileKind, data: Uint8Array, contentType: string | null): Promise<PackedText | null> {
    const text = kind === 'pdf' ? await pdfText(data) : plainText(Buffer.from(data.buffer, data.byteOffset, data.byteLength), contentType);
    return text && packText(text);
  }

  discard(ticket: number): void {
    this.parsed.delete(ticket);
  }

  private take(ticket: number): ParsedDoc {
    const doc = this.parsed.get(ticket);
    if (doc === undefined) throw new Error(`no prepared document ${ticket}`);
    this.parsed.delete(ticket);
    return doc;
  }
}
