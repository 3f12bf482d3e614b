import type { CrawlEvent, SkipReason } from '../../../shared/crawl.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { Catalogue, FetchOutcome, PayloadCapture, QueuedRow, UrlCapture } from '../store/catalogue.js';
import { NOTHING_SEEN, timingOf, type Seen } from './captureFacts.js';
import type { ProgressMeter } from './progress.js';

/**
 * Where every URL's outcome ends up: committed to the catalogue with its row in the current capture
 * and the payload captures the WARC writer reported since the last commit, counted in progress, and
 * reported as a url event.
 */
export class OutcomeLog {
  /**
   * First captures of payloads written to the WARC, saved with the next outcome rather than in a
   * commit of their own (each commit rewrites every page it touches in the WAL).
   */
  private unsavedCaptures: [string, PayloadCapture][] = [];

  constructor(
    private readonly catalogue: Catalogue,
    private readonly meter: ProgressMeter,
    private readonly emit: (e: CrawlEvent) => void,
  ) {}

  /** The WARC writer's report of a payload's first capture. */
  capturedOriginal(digest: string, capture: PayloadCapture): void {
    this.unsavedCaptures.push([digest, capture]);
  }

  saveCaptures(): void {
    for (const [digest, capture] of this.unsavedCaptures) this.catalogue.putCapture(digest, capture);
    this.unsavedCaptures = [];
  }

  skip(row: QueuedRow, reason: SkipReason, error: string | null = null): void {
    this.catalogue.skip(row, reason, error);
    this.meter.finished('skipped', 0, reason);
    this.emit({ type: 'url', url: row.url, state: 'skipped', skipReason: reason, ...(error !== null && { error }) });
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

  /**
   * Commits an outcome with the URL's row in the current capture. A URL keeps the file an earlier
   * capture saved, and links to it keep working, unless it now redirects.
   */
  record(row: QueuedRow, outcome: FetchOutcome, prev: UrlCapture | undefined, seen: Seen): void {
    const c = this.catalogue;
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
    this.meter.finished(o.state, seen.outcome === 'not-modified' ? 0 : (o.bytes ?? 0));
    this.emit({
      type: 'url',
      url: row.url,
      state: o.state,
      ...(o.httpStatus !== null && { httpStatus: o.httpStatus }),
      ...(o.error !== null && { error: o.error }),
      ...(o.bytes !== null && { bytes: o.bytes }),
      ...(o.localPath !== null && { localPath: o.localPath }),
    });
  }
}
