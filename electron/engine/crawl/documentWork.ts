import { LARGE_BODY_BYTES } from '../fetch/exchange.js';
import { beforeLargeBuffer } from '../memory/largeGarbage.js';
import { pdfText, plainText, type TextFileKind } from '../parse/fileText.js';
import type { PageAnalyzer } from '../focus/pageAnalysis.js';
import type { FocusRequest, PageAnalysis } from '../focus/pageAnalysisTypes.js';
import type { ExtractedLink, ParsedDoc } from '../parse/html.js';
import { textDigest } from '../parse/visibleText.js';
import { packText, type PackedText } from '../store/packedText.js';
import type { Mirror } from '../store/mirror.js';
import type { TextPlace } from '../store/textIndex.js';
import { hrefBetween } from '../url/localPath.js';
import { packOriginal, parseDocument, ReferenceMemo } from './documents.js';
import type { TextWriter } from './textWriter.js';

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
  /** The page's visible text for the search index; null unless asked for in the reply, and for CSS. */
  text: PackedText | null;
  /** Digest of an HTML page's whitespace-normalised visible text (see visibleText.ts); null for CSS and unless asked for (textDigest). */
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
  /**
   * The page's visible text for the search index: in the reply, or kept in the worker, which files
   * it in the index itself when the page is saved (a crawl); absent, neither.
   */
  text?: 'reply' | 'keep';
  /**
   * Digest the page's visible text (a new capture compares it with the previous one's). Without it
   * or `text` the text is not read: rewriting the Python manual's two largest pages (4.2 MB) takes
   * 410 ms of CPU without it, 576 ms with.
   */
  textDigest?: boolean;
  /** Score the page against the crawl's template (HTML only). */
  focus?: FocusRequest;
}

export interface SaveRequest {
  /** Where the copy goes in the mirror. */
  localPath: string;
  /** Per link, in order: the mirror file its reference should point to, or null to keep it absolute. */
  written: (string | null)[];
  /** Where the page's kept text goes in the search index once the copy is written. */
  index?: TextPlace;
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
  /** Texts kept for the index until their documents are saved or discarded. */
  private readonly kept = new Map<number, PackedText>();

  /** `analyzer`: a focused crawl's, built from its template; `text`: where kept texts are filed. */
  constructor(
    private readonly mirror: Mirror,
    private readonly analyzer: PageAnalyzer | null = null,
    private readonly text: TextWriter | null = null,
  ) {}

  prepare(ticket: number, req: PrepareRequest): PreparedDocument {
    // Its parse makes strings and buffers of its size: the last large ones' are freed first.
    if (req.body.byteLength > LARGE_BODY_BYTES) beforeLargeBuffer(req.body.byteLength);
    const body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    const text = req.focus !== undefined && req.kind === 'html' ? this.analyzer?.collector() : undefined;
    const withText = req.kind === 'html' && (req.textDigest === true || req.text !== undefined);
    const doc = parseDocument(req.kind, body, req.url, req.contentType, withText, text);
    this.parsed.set(ticket, doc);
    const packed = doc.text && req.text !== undefined ? packText(doc.text) : null;
    if (packed !== null && req.text === 'keep') this.kept.set(ticket, packed);
    const prepared: PreparedDocument = {
      title: doc.title,
      text: req.text === 'reply' ? packed : null,
      textDigest: doc.text && req.textDigest ? textDigest(doc.text) : null,
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
    const text = this.kept.get(ticket);
    this.kept.delete(ticket);
    const failure = this.write(req.localPath, data);
    if (failure === null && text !== undefined && req.index !== undefined) this.fileText(req.index, text);
    return failure;
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

  /**
   * The text of a file the search index keeps (see fileText.ts); null when it has none, or when
   * `index` says where to file it, as then the worker does.
   */
  async readFileText(kind: TextFileKind, data: Uint8Array, contentType: string | null, index?: TextPlace): Promise<PackedText | null> {
    const text = kind === 'pdf' ? await pdfText(data) : plainText(Buffer.from(data.buffer, data.byteOffset, data.byteLength), contentType);
    const packed = text && packText(text);
    if (packed === null || index === undefined) return packed;
    this.fileText(index, packed);
    return null;
  }

  /** Commits the texts filed so far; `release` closes this worker's connection to the index too. */
  async flushText(release: boolean): Promise<void> {
    await this.text?.flush(release);
  }

  discard(ticket: number): void {
    this.parsed.delete(ticket);
    this.kept.delete(ticket);
  }

  private fileText(place: TextPlace, text: PackedText): void {
    if (this.text === null) throw new Error('this document worker was started without a search index');
    this.text.add(place, text);
  }

  private take(ticket: number): ParsedDoc {
    const doc = this.parsed.get(ticket);
    if (doc === undefined) throw new Error(`no prepared document ${ticket}`);
    this.parsed.delete(ticket);
    return doc;
  }
}
