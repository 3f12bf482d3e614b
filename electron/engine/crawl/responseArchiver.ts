import type { CrawlEvent, SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { textFileKind } from '../parse/fileText.js';
import { compareCapture } from '../store/captureOutcome.js';
import type { Catalogue, FetchOutcome, PayloadCapture, QueuedRow, UrlCapture } from '../store/catalogue.js';
import type { RenderedCopy } from '../render/types.js';
import { localPathFor } from '../url/localPath.js';
import { warcDigest } from '../warc/digest.js';
import type { ExchangeLocation } from '../warc/types.js';
import type { WarcWriter } from '../warc/writer.js';
import { ByteBudget } from './byteBudget.js';
import { timingOf, validatorsOf, type Seen } from './captureFacts.js';
import { documentKind } from './documents.js';
import type { DocumentPool, PreparedTicket } from './documentPool.js';
import type { SaveFailure } from './documentWork.js';
import { originalOf, recordExchange, recordOf } from './exchangeRecords.js';
import type { Frontier } from './frontier.js';
import { judgePage, samePayload } from './focusedPage.js';
import { LinkAdmission } from './linkAdmission.js';
import { archiveNotModified, type NotModifiedParts } from './notModified.js';
import { OutcomeLog } from './outcomeLog.js';
import type { ProgressMeter } from './progress.js';
import { recordRedirect } from './redirectOutcome.js';
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
  private readonly log: OutcomeLog;
  /** What a 304 is answered with (notModified.ts). */
  private readonly notModified: NotModifiedParts;
  /**
   * Source bytes of the documents parsed and not yet saved. A parsed page holds its decoded source,
   * reference slots and links (some 5 MB for a page of 10,000 links) while its WARC records queue;
   * without a bound every connection's page would be held at once.
   */
  private readonly parseBudget = new ByteBudget(PARSE_BUDGET_BYTES);

  constructor(private readonly p: ArchiverParts) {
    this.links = new LinkAdmission(p.catalogue, p.frontier, p.documents);
    this.text = new TextFeed(p.catalogue, p.documents);
    this.log = new OutcomeLog(p.catalogue, p.meter, p.emit);
    this.notModified = { ...p, focus: p.focus ?? null, parseBudget: this.parseBudget, links: this.links, log: this.log };
  }

  /** Resolves once the text of every saved file has been read and queued for the index. */
  textRead(): Promise<void> {
    return this.text.textRead();
  }

  /** The WARC writer's report of a payload's first capture. */
  capturedOriginal(digest: string, capture: PayloadCapture): void {
    this.log.capturedOriginal(digest, capture);
  }

  saveCaptures(): void {
    this.log.saveCaptures();
  }

  skip(row: QueuedRow, reason: SkipReason, error: string | null = null): void {
    this.log.skip(row, reason, error);
  }

  failed(row: QueuedRow, error: string, prev: UrlCapture | undefined, res?: FetchResponse): void {
    this.log.failed(row, error, prev, res);
  }

  /** A page whose render failed, retry included: its response is recorded, the URL failed with the reason. */
  async renderFailed(row: QueuedRow, res: FetchResponse, reason: string, prev: UrlCapture | undefined): Promise<void> {
    await recordExchange(this.p.warc, res, null);
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
    if (res.status === 304 && prev !== undefined && prev.payloadDigest !== null) return archiveNotModified(this.notModified, row, res, prev);
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
      const recorded = await recordExchange(this.p.warc, res, doc);
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
      if (res.status >= 300 && res.status < 400 && res.location !== null) recordRedirect({ ...this.p, log: this.log }, row, res, prev, seen);
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
        this.log.record(row, outcome, prev, seen);
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
      this.log.record(row, outcome, prev, seen);
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
        this.log.record(row, { ...outcome, title: doc.title }, prev, seen);
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
      this.log.record(row, { ...outcome, title: doc.title, fetchedAt: place.fetchedAt }, prev, seen);
    });
    return true;
  }
}
