import { performance } from 'node:perf_hooks';
import type { Job } from '../../../shared/job.js';
import { FetchError, isHostDown } from '../fetch/errors.js';
import type { BodyRoom } from '../fetch/exchange.js';
import type { Fetcher, FetchResponse } from '../fetch/fetcher.js';
import { attemptsNote, retryAfterMs, retryWaitMs, TRANSIENT_STATUSES } from '../fetch/retry-policy.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';
import { BodyShare } from './bodyShare.js';
import type { ByteBudget } from './byteBudget.js';
import { conditionalHeaders } from './captureFacts.js';
import type { CrawlLimits } from './crawlLimits.js';
import type { HostHolds } from './hostHolds.js';
import type { SiteWork } from './lanes.js';
import type { RenderedCapture } from './renderedCapture.js';
import type { RequestHeaders } from './requestHeaders.js';
import type { ResponseArchiver } from './responseArchiver.js';

/**
 * Attempts a URL may spend waiting out its host's outage (HostHolds bounds the outage in time):
 * a bound all the same, should a host keep coming and going.
 */
const OUTAGE_MAX_RETRIES = 100;

export interface UrlProcessorParts {
  job: Job;
  catalogue: Catalogue;
  fetcher: Fetcher;
  requestHeaders: RequestHeaders;
  archiver: ResponseArchiver;
  rendering: RenderedCapture | null;
  limits: CrawlLimits;
  /** Requests on the wire and pages rendering, abandoned by a pause. */
  inFlight: Map<AbortController, string>;
  retryBackoffMs: number;
  holds: HostHolds;
  /** Whether the crawl is still running (a pausing crawl leaves retries to the next run). */
  running: () => boolean;
  /** Lets the crawl loop start the next request as soon as a response is in. */
  pump: () => void;
  /**
   * Memory for bodies over 1 MiB, from their arrival until archived. Without it every connection
   * could hold one at once: eight 50 MB compression bombs peaked at 1.2 GB.
   */
  largeBodies: ByteBudget;
}

/** One queued URL from request to recorded outcome: conditional fetch, retries, rendering, archiving. */
export class UrlProcessor {
  constructor(private readonly p: UrlProcessorParts) {}

  /**
   * Fetches and archives one queued URL. A transient failure (a timeout, a reset, 429 or 5xx) with
   * attempts left is counted in the catalogue and handed to `retry` with its back-off; the last
   * attempt's outcome is recorded, saying how many attempts were made.
   */
  async process(s: SiteWork, row: QueuedRow, fetched: () => void, retry: (waitMs: number) => void): Promise<void> {
    const share = new BodyShare(this.p.largeBodies);
    try {
      await this.fetchAndArchive(s, row, fetched, retry, share.room);
    } finally {
      share.release();
    }
  }

  private async fetchAndArchive(
    s: SiteWork,
    row: QueuedRow,
    fetched: () => void,
    retry: (waitMs: number) => void,
    bodyRoom: BodyRoom,
  ): Promise<void> {
    const { archiver, limits, inFlight } = this.p;
    const abort = new AbortController();
    inFlight.set(abort, row.url);
    let res: FetchResponse;
    let quietMs: number | null = null;
    const attempt = row.attempts + 1;
    const startedMs = performance.now();
    // A URL fetched in an earlier capture is asked whether it changed since, and compared with it.
    const c = this.p.catalogue;
    const prev = c.currentCapture() > 1 ? c.previousCapture(row.id) : undefined;
    try {
      res = await this.p.fetcher.fetch(row.url, {
        signal: abort.signal,
        headers: [...this.p.requestHeaders.for(row.url), ...conditionalHeaders(prev)],
        bodyRoom,
      });
      s.lastResponseMs = res.durationMs;
      this.p.holds.answered(s.host);
      // "Not now, and not before then" is the server's word for every URL of the host.
      quietMs = TRANSIENT_STATUSES.has(res.status) ? retryAfterMs(res.headers['retry-after']) : null;
      if (quietMs !== null) this.p.holds.retryAfter(s.host, quietMs);
      fetched();
      this.p.pump();
    } catch (e) {
      // A timeout is the slowest answer of all: the adaptive delay backs off after it too.
      s.lastResponseMs = performance.now() - startedMs;
      if (!(e instanceof FetchError)) throw e;
      // Abandoned by a pause or a limit: the URL stays queued, unless a limit ended the crawl.
      if (e.code === 'aborted') {
        if (limits.stopReason !== null) archiver.skip(row, limits.stopReason);
        return;
      }
      if (e.code === 'address') {
        archiver.skip(row, 'address:private', e.message);
        return;
      }
      if (isHostDown(e)) {
        // The host stopped answering: its URLs wait for it (HostHolds) rather than fail one by one.
        const waitMs = this.p.holds.unreachable(s.host, e.message);
        if (waitMs !== null && this.retryLater(row, attempt, waitMs, retry, OUTAGE_MAX_RETRIES)) return;
      } else if (this.retryLater(row, attempt, retryWaitMs(e, attempt, this.p.retryBackoffMs), retry)) {
        return;
      }
      archiver.failed(row, `${e.code}: ${e.message}${attemptsNote(attempt)}`, prev);
      return;
    } finally {
      inFlight.delete(abort);
    }
    // A Retry-After retry is due at once: the host's hold keeps it back until the time the server
    // named, and then it, not the next queued URL, goes first (a wait measured again here would end
    // a few ms after the hold, and the queue would go ahead).
    const waitMs = quietMs !== null ? 0 : retryWaitMs(res, attempt, this.p.retryBackoffMs);
    if (this.retryLater(row, attempt, waitMs, retry)) return;
    let rendered = null;
    const rendering = this.p.rendering;
    if (rendering?.wants(row, res)) {
      // The page stays in flight while it renders: a pause abandons it, and it stays queued.
      inFlight.set(abort, row.url);
      const outcome = await rendering.render(row, res, abort.signal).finally(() => inFlight.delete(abort));
      if (outcome === 'aborted') {
        if (limits.stopReason !== null) archiver.skip(row, limits.stopReason);
        return;
      }
      if ('failed' in outcome) {
        await archiver.renderFailed(row, res, outcome.failed, prev);
        return;
      }
      rendered = outcome.copy;
    }
    if (await archiver.archive(row, res, prev, attemptsNote(attempt), rendered)) limits.pageSaved();
    limits.checkBytes();
  }

  /**
   * Counts a transient failure with attempts left and, while the crawl runs, schedules the next
   * attempt (a pausing crawl leaves it to the next run); false when the outcome is to be recorded.
   */
  private retryLater(
    row: QueuedRow,
    attempt: number,
    waitMs: number | null,
    retry: (waitMs: number) => void,
    maxRetries = this.p.job.fetch.maxRetries,
  ): boolean {
    if (waitMs === null || attempt > maxRetries) return false;
    this.p.catalogue.setAttempts(row.id, attempt);
    row.attempts = attempt;
    if (this.p.running()) retry(waitMs);
    return true;
  }
}
