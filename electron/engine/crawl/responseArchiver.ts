import type { CrawlEvent, SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import { FetchError } from '../fetch/errors.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { textFileKind } from '../parse/fileText.js';
import { compareCapture } from '../store/captureOutcome.js';
import type { Catalogue, FetchOutcome, PayloadCapture, QueuedRow, StoredOriginal, UrlCapture } from '../store/catalogue.js';
import type { RenderedCopy } from '../render/types.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { warcDigest } from '../warc/digest.js';
import { WarcError } from '../warc/errors.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { ExchangeLocation } from '../warc/types.js';
import type { WarcWriter } from '../warc/writer.js';
import { ByteBudget } from './byteBudget.js';
import { NOTHING_SEEN, originalOfPrevious, timingOf, validatorsOf, type Seen } from './captureFacts.js';
import { documentKind, packOriginal } from './documents.js';
import type { DocumentPool, PreparedTicket } from './documentPool.js';
import type { SaveFailure } from './documentWork.js';
import type { Frontier } from './frontier.js';
import { judgePage, samePayload } from './focusedPage.js';
import { LinkAdmission } from './linkAdmission.js';
import { readOriginal } from './originals.js';
import type { ProgressMeter } from './progress.js';
import { TextFeed } from './textFeed.js';
import type { FocusPolicy } from '../focus/focusPolicy.js';

export { MAX_LINKS_QUEUED_PER_PAGE } from './linkAdmission.js';

const PARSE_BUDGET_BYTES = 2 * 1024 * 1024;

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
  /** Where the archive's WARC files are, to read back what a 304 did not send again. */
  warcDir: string;
  emit: (e: CrawlEvent) => void;
  /** A focused harvest's decisions; null without a template. */
  focus?: FocusPolicy | null;
}

/**
 * Capture bookkeeping: what becomes of a fetched response. It is recorded in the WARC, parsed and
 * saved to the mirror, its links admitted to the frontier, and its outcome committed to the
 * catalogue, with how it compares with the URL's previous capture and the payload captures the WARC
 * writer reported since the last commit. An answer the same as last time (304, or the same payload)
 * leaves the mirror's file as it is; its links are still followed.
 */
export class ResponseArchiver {
  private readonly links: LinkAdmission;
  private readonly text: TextFeed;
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

  constructor(private readonly p: ArchiverParts) {
    this.links = new LinkAdmission(p.catalogue, p.frontier, p.documents);
    this.text = new TextFeed(p.catalogue, p.documents);
  }

  /** Resolves once the text of every saved file has been read and queued for the index. */
  textRead(): Promise<void> {
    return this.text.textRead();
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

  failed(row: QueuedRow, error: string, prev: UrlCapture | undefined, res?: FetchResponse): void {
    const outcome: FetchOutcome = {
      state: 'failed',
      httpStatus: res?.status ?? null,
      contentType: res?.contentType ?? null,
      bytes: res?.body.length ?? null,
      localPath: null,
      redirectToId: null,
      error,
      title: null,
    };
    this.record(row, outcome, prev, res === undefined ? NOTHING_SEEN : { ...NOTHING_SEEN, timing: timingOf(res) });
  }

  /** A page whose render failed, retry included: its response is recorded, the URL failed with the reason. */
  async renderFailed(row: QueuedRow, res: FetchResponse, reason: string, prev: UrlCapture | undefined): Promise<void> {
    await this.recordExchange(res, null);
    this.failed(row, reason, prev, res);
  }

  /**
   * Archives a response fetched for `row`. The WARC record is written before the outcome commits: a
   * kill in between re-fetches the URL (one extra record) but never leaves an outcome without its
   * record. `attemptsNote` says how often an error answer was asked for. Returns whether an HTML
   * page was saved. A rendered page's copy is made from what the browser showed (`rendered`), which
   * is also its original for the finishing pass; the WARC keeps the response as fetched.
   */
  async archive(
    row: QueuedRow,
    res: FetchResponse,
    prev: UrlCapture | undefined,
    attemptsNote = '',
    rendered: RenderedCopy | null = null,
  ): Promise<boolean> {
    if (res.status === 304 && prev !== undefined && prev.payloadDigest !== null) return this.archiveNotModified(row, res, prev);
    const kind = res.status >= 200 && res.status < 300 ? documentKind(res.contentType, row.url) : 'other';
    const giveBack = kind === 'other' ? null : await this.parseBudget.take(res.body.length);
    let doc: PreparedTicket | null = null;
    try {
      if (kind !== 'other') {
        // With a WARC the response record holds the original; without one the catalogue keeps it.
        // Fields are extracted again only from a page whose payload changed since its previous capture.
        const focus = kind === 'html' ? this.p.focus?.request(row, !samePayload(prev, res)) : undefined;
        doc = await this.p.documents.prepare({
          kind,
          body: rendered?.html ?? res.body,
          url: row.url,
          contentType: res.contentType,
          packOriginal: this.p.warc === null || rendered !== null,
          ...(kind === 'html' && { text: 'keep' as const, textDigest: true }),
          ...(focus !== undefined && { focus }),
        });
      }
      const recorded = await this.recordExchange(res, doc);
      const payloadDigest = recorded?.payloadDigest ?? warcDigest([res.wireBody]);
      const textDigest = doc?.textDigest ?? null;
      const seen: Seen = {
        outcome: compareCapture(prev, { httpStatus: res.status, payloadDigest, textDigest, notModified: false }),
        payloadDigest,
        textDigest,
        ...validatorsOf(res),
        record: recordOf(recorded),
        contentEncoding: res.headers['content-encoding'] ?? null,
        timing: timingOf(res),
      };
      if (res.status >= 300 && res.status < 400 && res.location !== null) this.recordRedirect(row, res, prev, seen);
      else if (doc !== null) {
        const handedOver = doc;
        doc = null;
        return (await this.archiveDocument(row, res, handedOver, recorded, prev, seen)) && kind === 'html';
      } else if (res.status >= 200 && res.status < 300) await this.archiveFile(row, res, prev, seen);
      else {
        const outcome: FetchOutcome = {
          state: 'http-error',
          httpStatus: res.status,
          contentType: res.contentType,
          bytes: res.body.length,
          localPath: null,
          redirectToId: null,
          error: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${attemptsNote}`,
          title: null,
        };
        this.record(row, outcome, prev, seen);
      }
      return false;
    } finally {
      if (doc !== null) this.p.documents.discard(doc);
      giveBack?.();
    }
  }

  /**
   * Commits an outcome with the URL's row in the current capture. A URL keeps the file an earlier
   * capture saved, and links to it keep working, unless it now redirects.
   */
  private record(row: QueuedRow, outcome: FetchOutcome, prev: UrlCapture | undefined, seen: Seen): void {
    const c = this.p.catalogue;
    const kept = outcome.localPath === null && outcome.state !== 'redirect' && prev?.localPath ? { ...outcome, localPath: prev.localPath } : outcome;
    // Dated as its WARC record (the request's start), so pages.jsonl and replay tools find that record.
    const o = kept.fetchedAt === undefined && seen.timing ? { ...kept, fetchedAt: seen.timing.requestedAt } : kept;
    c.transaction(() => {
      this.saveCaptures();
      c.recordOutcome(row, o);
      c.putUrlCapture({
        urlId: row.id,
        capture: c.currentCapture(),
        httpStatus: o.httpStatus,
        contentType: o.contentType,
        bytes: o.bytes,
        localPath: o.localPath,
        fetchedAt: o.fetchedAt ?? new Date().toISOString(),
        ...seen,
      });
    });
    this.p.meter.finished(o.state, seen.outcome === 'not-modified' ? 0 : (o.bytes ?? 0));
    this.p.emit({
      type: 'url',
      url: row.url,
      state: o.state,
      ...(o.httpStatus !== null && { httpStatus: o.httpStatus }),
      ...(o.error !== null && { error: o.error }),
      ...(o.bytes !== null && { bytes: o.bytes }),
      ...(o.localPath !== null && { localPath: o.localPath }),
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

  private recordRedirect(row: QueuedRow, res: FetchResponse, prev: UrlCapture | undefined, seen: Seen): void {
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
          // A hop keeps its source's place in a focused harvest's queue.
          ...(row.score != null && { score: row.score }),
        }).id;
      }
      const outcome: FetchOutcome = {
        state: 'redirect',
        httpStatus: res.status,
        contentType: res.contentType,
        bytes: res.body.length,
        localPath: null,
        redirectToId: targetId,
        error,
        title: null,
      };
      this.record(row, outcome, prev, seen);
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

  /** A response saved as it came: anything but HTML and CSS. The same payload as last time is not written again. */
  private async archiveFile(row: QueuedRow, res: FetchResponse, prev: UrlCapture | undefined, seen: Seen): Promise<void> {
    const outcome = { ...this.archivedOutcome(row, res), fetchedAt: res.startedAt.toISOString() };
    const failure = seen.outcome === 'unchanged' ? null : await this.p.documents.write(outcome.localPath!, res.body);
    if (failure !== null) this.failedToSave(row, res, outcome.localPath!, failure, prev);
    else {
      this.record(row, outcome, prev, seen);
      // The same payload as last time has its text in the index already.
      const kind = textFileKind(res.contentType, row.url);
      if (kind !== null && seen.outcome !== 'unchanged') this.text.readText(this.text.place(row, kind, outcome.fetchedAt), res);
    }
  }

  /** A file that can't be saved under its name fails that URL only; anything else stops the crawl. */
  private failedToSave(row: QueuedRow, res: FetchResponse, localPath: string, failure: SaveFailure, prev: UrlCapture | undefined): void {
    if (!PER_URL_FS_ERRORS.has(failure.code)) throw Object.assign(new Error(failure.message), { code: failure.code });
    this.failed(row, `cannot save as ${localPath}: ${failure.code}`, prev, res);
  }

  /**
   * An HTML or CSS document parsed in a document worker: its links are admitted in one transaction,
   * the worker rewrites and saves the copy, then its link rows, original bytes and outcome commit
   * in a second. A kill in between leaves the URL queued with its links already known (the copy, if
   * written, is overwritten when the URL is fetched again). A document unchanged since the previous
   * capture keeps its copy and the link rows that describe it. Returns whether the document was saved.
   */
  private async archiveDocument(
    row: QueuedRow,
    res: FetchResponse,
    doc: PreparedTicket,
    recorded: ExchangeLocation | null,
    prev: UrlCapture | undefined,
    seen: Seen,
  ): Promise<boolean> {
    const { catalogue: c, documents } = this.p;
    const outcome = this.archivedOutcome(row, res);
    const localPath = outcome.localPath!;
    const judged = judgePage(this.p.focus ?? null, row, doc);
    const plan = judged?.plan ?? null;
    const recordFocus = () => judged !== null && this.p.focus!.record(row, judged.verdict, judged.analysis, res.startedAt.toISOString());
    if (seen.outcome === 'unchanged') {
      this.links.admit(row, doc, false, plan);
      // Its copy and text stay as the previous capture left them.
      documents.discard(doc);
      c.transaction(() => {
        recordFocus();
        this.record(row, { ...outcome, title: doc.title }, prev, seen);
      });
      return true;
    }
    const { written, links } = this.links.admit(row, doc, true, plan);
    // One time for the catalogue and the search index: a reindex reads it back from the catalogue.
    const place = this.text.place(row, 'html', res.startedAt.toISOString());
    const failure = await documents.save(doc, { localPath, written, index: place });
    if (failure !== null) {
      // Its links still stand: they were found, and are crawled like any others.
      this.failedToSave(row, res, localPath, failure, prev);
      return false;
    }
    c.transaction(() => {
      c.replaceLinks(row.id, links);
      c.putOriginal(row.id, res.contentType, originalOf(res, doc, recorded));
      recordFocus();
      this.record(row, { ...outcome, title: doc.title, fetchedAt: place.fetchedAt }, prev, seen);
    });
    return true;
  }

  /**
   * A 304 to the previous capture's validators: a revisit record, no payload, the mirror's file as
   * it is. A document's links are still followed, from its original read back from the archive.
   */
  private async archiveNotModified(row: QueuedRow, res: FetchResponse, prev: UrlCapture): Promise<boolean> {
    const { catalogue: c, job, warc } = this.p;
    if (warc !== null) await warc.writeNotModified(exchangeFromFetch(res), originalOfPrevious(c, row.url, prev), prev.payloadDigest);
    const kind = documentKind(prev.contentType, row.url);
    let title: string | null = null;
    let error: string | null = null;
    let judged: ReturnType<typeof judgePage> = null;
    const original = kind === 'other' ? undefined : c.getOriginal(row.id);
    if (kind !== 'other' && original !== undefined) {
      let body: Buffer | null = null;
      try {
        body = await readOriginal(this.p.warcDir, original, job.fetch.maxResponseBytes);
      } catch (e) {
        if (!(e instanceof FetchError || (e instanceof WarcError && e.code === 'damaged'))) throw e;
        error = `links not followed, its original is unreadable: ${e.message}`;
      }
      if (body !== null) {
        const giveBack = await this.parseBudget.take(body.length);
        try {
          const focus = kind === 'html' ? this.p.focus?.request(row, false) : undefined;
          const doc = await this.p.documents.prepare({ kind, body, url: row.url, contentType: prev.contentType, packOriginal: false, ...(focus !== undefined && { focus }) });
          title = doc.title;
          judged = judgePage(this.p.focus ?? null, row, doc);
          this.links.admit(row, doc, false, judged?.plan ?? null);
        } finally {
          giveBack();
        }
      }
    }
    const outcome: FetchOutcome = {
      state: 'archived',
      httpStatus: res.status,
      contentType: prev.contentType,
      bytes: prev.bytes,
      localPath: prev.localPath,
      redirectToId: null,
      error,
      title,
    };
    const validators = validatorsOf(res);
    if (judged !== null) this.p.focus!.record(row, judged.verdict, judged.analysis, res.startedAt.toISOString());
    this.record(row, outcome, prev, {
      outcome: 'not-modified',
      payloadDigest: prev.payloadDigest,
      textDigest: prev.textDigest,
      etag: validators.etag ?? prev.etag,
      lastModified: validators.lastModified ?? prev.lastModified,
      record: prev.record,
      contentEncoding: prev.contentEncoding,
      timing: timingOf(res),
    });
    return kind === 'html';
  }
}

/** Where the payload of an exchange is: its response record, or for a revisit its original's. */
function recordOf(recorded: ExchangeLocation | null): Seen['record'] {
  if (recorded === null) return null;
  if (recorded.revisitOf === undefined) return { file: recorded.file, offset: recorded.offset, length: recorded.length };
  return recorded.revisitOf.place ?? null;
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
  const place = recordOf(recorded);
  return place !== null ? { record: place, contentEncoding } : { packed: packOriginal(res.body) };
}
