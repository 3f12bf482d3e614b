import type { CrawlEvent, SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { Statement } from 'better-sqlite3';
import { textFileKind } from '../parse/fileText.js';
import type { PackedText } from '../store/packedText.js';
import { FIRST_CAPTURE, type TextIndex, type TextKind } from '../store/textIndex.js';
import type { RenderedCopy } from '../render/types.js';
import type { Catalogue, FetchOutcome, LinkRow, PayloadCapture, QueuedRow, StoredOriginal } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { ExchangeLocation } from '../warc/types.js';
import type { WarcWriter } from '../warc/writer.js';
import { ByteBudget } from './byteBudget.js';
import { documentKind, packOriginal, ReferenceMemo } from './documents.js';
import type { DocumentPool, PreparedTicket } from './documentPool.js';
import type { SaveFailure } from './documentWork.js';
import type { Frontier } from './frontier.js';
import type { ProgressMeter } from './progress.js';

const PARSE_BUDGET_BYTES = 2 * 1024 * 1024;

/**
 * The most links one page adds to the queue; those past it are recorded as skipped
 * (limit:links-per-page) unless the URL is already known. Every reference is still rewritten.
 */
export const MAX_LINKS_QUEUED_PER_PAGE = 10_000;

/** Errors that concern one URL's file (a name clash, a name too long): that URL fails, the crawl goes on. */
const PER_URL_FS_ERRORS = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG', 'EINVAL']);

export interface ArchiverParts {
  job: Job;
  catalogue: Catalogue;
  frontier: Frontier;
  meter: ProgressMeter;
  documents: DocumentPool;
  /** null with --no-warc. */
  warc: WarcWriter | null;
  /** The search index the saved documents' text goes to. */
  text: TextIndex;
  emit: (e: CrawlEvent) => void;
}

/**
 * Capture bookkeeping: what becomes of a fetched response. It is recorded in the WARC, parsed and
 * saved to the mirror, its links admitted to the frontier, and its outcome committed to the
 * catalogue with the payload captures the WARC writer reported since the last commit.
 */
export class ResponseArchiver {
  private readonly memo = new ReferenceMemo();
  /**
   * First captures of payloads written to the WARC, saved with the next outcome rather than in a
   * commit of their own (each commit rewrites every page it touches in the WAL).
   */
  private unsavedCaptures: [string, PayloadCapture][] = [];
  /**
   * Source bytes of the documents parsed and not yet saved. A parsed page holds its decoded source,
   * reference slots and links (some 5 MB for a page of 10,000 links) while its WARC records queue;
   * without a bound every connection's page would be held at once.
   */
  private readonly parseBudget = new ByteBudget(PARSE_BUDGET_BYTES);
  /** Files whose text is being read (PDFs take a while): the crawl goes on meanwhile, and waits for them when it stops. */
  private readonly readingText = new Set<Promise<void>>();
  private fetchedAt: Statement | null = null;

  constructor(private readonly p: ArchiverParts) {}

  /** Resolves once the text of every saved file has been read and queued for the index. */
  async textRead(): Promise<void> {
    while (this.readingText.size > 0) await Promise.allSettled([...this.readingText]);
  }

  /** Queues a saved document's text for the index, dated as its outcome in the catalogue. */
  private indexText(row: QueuedRow, kind: TextKind, text: PackedText): void {
    this.fetchedAt ??= this.p.catalogue.sqlite.prepare('SELECT fetched_at FROM urls WHERE id = ?').pluck();
    const fetchedAt = this.fetchedAt.get(row.id) as string | null;
    this.p.text.add({ urlId: row.id, url: row.url, capture: FIRST_CAPTURE, kind, fetchedAt, text });
  }

  /** The WARC writer's report of a payload's first capture. */
  capturedOriginal(digest: string, capture: PayloadCapture): void {
    this.unsavedCaptures.push([digest, capture]);
  }

  saveCaptures(): void {
    for (const [digest, capture] of this.unsavedCaptures) this.p.catalogue.putCapture(digest, capture);
    this.unsavedCaptures = [];
  }

  skip(row: QueuedRow, reason: SkipReason, error: string | null = null): void {
    this.p.catalogue.skip(row, reason, error);
    this.p.meter.finished('skipped', 0, reason);
    this.p.emit({ type: 'url', url: row.url, state: 'skipped', skipReason: reason, ...(error !== null && { error }) });
  }

  failed(row: QueuedRow, error: string, res?: FetchResponse): void {
    this.record(row, {
      state: 'failed',
      httpStatus: res?.status ?? null,
      contentType: res?.contentType ?? null,
      bytes: res?.body.length ?? null,
      localPath: null,
      redirectToId: null,
      error,
      title: null,
    });
  }

  /** A page whose render failed, retry included: its response is recorded, the URL failed with the reason. */
  async renderFailed(row: QueuedRow, res: FetchResponse, reason: string): Promise<void> {
    await this.recordExchange(res, null);
    this.failed(row, reason, res);
  }

  /**
   * Archives a response fetched for `row`. The WARC record is written before the outcome commits: a
   * kill in between re-fetches the URL (one extra record) but never leaves an outcome without its
   * record. `attemptsNote` says how often an error answer was asked for. Returns whether an HTML
   * page was saved. A rendered page's copy is made from what the browser showed (`rendered`), which
   * is also its original for the finishing pass; the WARC keeps the response as fetched.
   */
  async archive(row: QueuedRow, res: FetchResponse, attemptsNote = '', rendered: RenderedCopy | null = null): Promise<boolean> {
    const kind = res.status >= 200 && res.status < 300 ? documentKind(res.contentType, row.url) : 'other';
    const giveBack = kind === 'other' ? null : await this.parseBudget.take(res.body.length);
    let doc: PreparedTicket | null = null;
    try {
      if (kind !== 'other') {
        // With a WARC the response record holds the original; without one the catalogue keeps it.
        doc = await this.p.documents.prepare({
          kind,
          body: rendered?.html ?? res.body,
          url: row.url,
          contentType: res.contentType,
          packOriginal: this.p.warc === null || rendered !== null,
          withText: kind === 'html',
        });
      }
      const recorded = await this.recordExchange(res, doc);
      if (res.status >= 300 && res.status < 400 && res.location !== null) this.recordRedirect(row, res);
      else if (doc !== null) {
        const handedOver = doc;
        doc = null;
        return (await this.archiveDocument(row, res, handedOver, recorded)) && kind === 'html';
      } else if (res.status >= 200 && res.status < 300) await this.archiveFile(row, res);
      else {
        this.record(row, {
          state: 'http-error',
          httpStatus: res.status,
          contentType: res.contentType,
          bytes: res.body.length,
          localPath: null,
          redirectToId: null,
          error: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${attemptsNote}`,
          title: null,
        });
      }
      return false;
    } finally {
      if (doc !== null) this.p.documents.discard(doc);
      giveBack?.();
    }
  }

  private record(row: QueuedRow, outcome: FetchOutcome): void {
    const c = this.p.catalogue;
    c.transaction(() => {
      this.saveCaptures();
      c.recordOutcome(row, outcome);
    });
    this.p.meter.finished(outcome.state, outcome.bytes ?? 0);
    this.p.emit({
      type: 'url',
      url: row.url,
      state: outcome.state,
      ...(outcome.httpStatus !== null && { httpStatus: outcome.httpStatus }),
      ...(outcome.error !== null && { error: outcome.error }),
      ...(outcome.bytes !== null && { bytes: outcome.bytes }),
      ...(outcome.localPath !== null && { localPath: outcome.localPath }),
    });
  }

  /** Records the exchange in the WARC, with the document's outlinks in a metadata record; null without a WARC. */
  private async recordExchange(res: FetchResponse, doc: PreparedTicket | null): Promise<ExchangeLocation | null> {
    const warc = this.p.warc;
    if (!warc) return null;
    const at = await warc.writeExchange(exchangeFromFetch(res));
    if (doc && doc.links.length > 0) {
      await warc.writeMetadata({
        url: res.url,
        date: res.startedAt,
        concurrentTo: at.recordId,
        outlinks: doc.links.map((l) => ({ url: l.url, kind: l.kind })),
      });
    }
    return at;
  }

  private recordRedirect(row: QueuedRow, res: FetchResponse): void {
    const { catalogue: c, frontier, job } = this.p;
    const target = canonicalize(res.location!, row.url);
    const hops = row.redirect_hops + 1;
    c.transaction(() => {
      let targetId: number | null = null;
      let error: string | null = null;
      if (target === null) error = `unusable redirect target: ${res.location!.slice(0, 200)}`;
      else if (hops > job.fetch.maxRedirects) error = `more than ${job.fetch.maxRedirects} redirects`;
      else {
        // Seeds and their redirect chains are the only URLs at depth 0.
        if (row.depth === 0) frontier.followSeedRedirect(target);
        targetId = frontier.admit({
          url: target,
          parentId: row.id,
          parentDepth: row.depth,
          sameDepth: true,
          via: 'redirect',
          requisite: row.requisite === 1,
          parentInScope: frontier.scope.inScope(row.url),
          typeHint: row.type_hint,
          redirectHops: hops,
        }).id;
      }
      this.record(row, {
        state: 'redirect',
        httpStatus: res.status,
        contentType: res.contentType,
        bytes: res.body.length,
        localPath: null,
        redirectToId: targetId,
        error,
        title: null,
      });
    });
  }

  private archivedOutcome(row: QueuedRow, res: FetchResponse): FetchOutcome {
    return {
      state: 'archived',
      httpStatus: res.status,
      contentType: res.contentType,
      bytes: res.body.length,
      localPath: localPathFor(row.url, res.contentType),
      redirectToId: null,
      error: null,
      title: null,
    };
  }

  /** A response saved as it came: anything but HTML and CSS. */
  private async archiveFile(row: QueuedRow, res: FetchResponse): Promise<void> {
    const outcome = this.archivedOutcome(row, res);
    const failure = await this.p.documents.write(outcome.localPath!, res.body);
    if (failure !== null) this.failedToSave(row, res, outcome.localPath!, failure);
    else {
      this.record(row, outcome);
      const kind = textFileKind(res.contentType, row.url);
      if (kind !== null) this.readText(row, kind, res);
    }
  }

  /** Reads a saved file's text in a document worker; one that can't be read is left out of the index. */
  private readText(row: QueuedRow, kind: TextKind & ('pdf' | 'text'), res: FetchResponse): void {
    const reading = this.p.documents
      .fileText(kind, res.body, res.contentType)
      .then((text) => {
        if (text !== null) this.indexText(row, kind, text);
      })
      .catch(() => {})
      .finally(() => this.readingText.delete(reading));
    this.readingText.add(reading);
  }

  /** A file that can't be saved under its name fails that URL only; anything else stops the crawl. */
  private failedToSave(row: QueuedRow, res: FetchResponse, localPath: string, failure: SaveFailure): void {
    if (!PER_URL_FS_ERRORS.has(failure.code)) throw Object.assign(new Error(failure.message), { code: failure.code });
    this.failed(row, `cannot save as ${localPath}: ${failure.code}`, res);
  }

  /**
   * An HTML or CSS document parsed in a document worker: its links are admitted in one transaction,
   * the worker rewrites and saves the copy, then its link rows, original bytes and outcome commit
   * in a second. A kill in between leaves the URL queued with its links already known (the copy, if
   * written, is overwritten when the URL is fetched again). Returns whether the document was saved.
   */
  private async archiveDocument(row: QueuedRow, res: FetchResponse, doc: PreparedTicket, recorded: ExchangeLocation | null): Promise<boolean> {
    const { catalogue: c, frontier, documents } = this.p;
    const outcome = this.archivedOutcome(row, res);
    const localPath = outcome.localPath!;
    const written: (string | null)[] = [];
    const links: LinkRow[] = [];
    let saving = false;
    try {
      const inScope = frontier.scope.inScope(row.url);
      c.transaction(() => {
        for (const [index, link] of doc.links.entries()) {
          const target =
            link.canonical === null
              ? null
              : frontier.admit({
                  url: link.canonical,
                  parentId: row.id,
                  parentDepth: row.depth,
                  sameDepth: false,
                  via: link.kind,
                  requisite: link.requisite,
                  parentInScope: inScope,
                  typeHint: link.typeHint,
                  redirectHops: 0,
                  pastLinkCap: index >= MAX_LINKS_QUEUED_PER_PAGE,
                });
          const place = target === null ? null : this.memo.plannedTarget(target, link.typeHint);
          // An archived target's file is final, so a reference to it never needs redoing.
          if (target !== null && target.state !== 'archived') {
            links.push({ toId: target.id, kind: link.kind, text: link.text || null, written: place });
          }
          written.push(place);
        }
      });
      saving = true;
    } finally {
      if (!saving) documents.discard(doc);
    }
    const failure = await documents.save(doc, { localPath, written });
    if (failure !== null) {
      // Its links still stand: they were found, and are crawled like any others.
      this.failedToSave(row, res, localPath, failure);
      return false;
    }
    c.transaction(() => {
      c.replaceLinks(row.id, links);
      c.putOriginal(row.id, res.contentType, originalOf(res, doc, recorded));
      this.record(row, { ...outcome, title: doc.title });
    });
    if (doc.text !== null) this.indexText(row, 'html', doc.text);
    return true;
  }
}

/**
 * Where a saved document's original bytes are kept for the final rewrite pass: its response record,
 * or for a revisit (an identical payload at another URL, such as a page with a tracking parameter)
 * the record of the payload's first capture. Deflated in the catalogue without a WARC, or when
 * that first capture's place is unknown (recorded by an older version).
 */
function originalOf(res: FetchResponse, doc: PreparedTicket, recorded: ExchangeLocation | null): StoredOriginal {
  // Packed when asked for: without a WARC, or a rendered copy (which no record holds).
  if (doc.original !== null) return { packed: doc.original };
  if (recorded === null) return { packed: packOriginal(res.body) };
  const contentEncoding = res.headers['content-encoding'] ?? null;
  if (recorded.revisitOf === undefined) return { record: { file: recorded.file, offset: recorded.offset, length: recorded.length }, contentEncoding };
  const first = recorded.revisitOf.place;
  return first !== undefined ? { record: first, contentEncoding } : { packed: packOriginal(res.body) };
}
