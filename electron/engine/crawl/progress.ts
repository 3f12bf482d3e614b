import { countsFromStates, type CrawlCounts, type ProgressEvent, type SkipReason, type UrlState } from '../../../shared/crawl.js';

/** Rates are averaged over this window so the figures neither jump nor lag. */
const WINDOW_MS = 5_000;

interface Sample {
  atMs: number;
  done: number;
  bytes: number;
}

/** Live counters for one crawl plus moving-average URL and byte rates. */
export class ProgressMeter {
  readonly counts: CrawlCounts;
  private readonly samples: Sample[] = [];
  private done = 0;

  constructor(
    byState: Record<UrlState, number>,
    skippedByReason: Partial<Record<SkipReason, number>>,
    bytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = countsFromStates(byState, skippedByReason, bytes);
  }

  discovered(state: 'queued' | 'skipped', reason: SkipReason | null): void {
    this.counts.discovered++;
    if (state === 'queued') this.counts.queued++;
    else this.addSkip(reason);
  }

  /** A queued URL left the queue with this outcome. */
  finished(state: Exclude<UrlState, 'queued'>, bytes: number, reason: SkipReason | null = null): void {
    this.counts.queued--;
    switch (state) {
      case 'archived':
        this.counts.archived++;
        break;
      case 'redirect':
        this.counts.redirects++;
        break;
      case 'http-error':
        this.counts.httpErrors++;
        break;
      case 'failed':
        this.counts.failed++;
        break;
      case 'skipped':
        this.addSkip(reason);
        break;
    }
    this.counts.bytes += bytes;
    if (state !== 'skipped') this.done++;
  }

  /** A skipped URL went back into the queue because a later link allowed it. */
  requeued(fromReason: SkipReason | null): void {
    this.counts.skipped--;
    if (fromReason) this.counts.skippedByReason[fromReason] = (this.counts.skippedByReason[fromReason] ?? 1) - 1;
    this.counts.queued++;
  }

  bulkSkipped(n: number, reason: SkipReason): void {
    this.counts.queued -= n;
    this.counts.skipped += n;
    this.counts.skippedByReason[reason] = (this.counts.skippedByReason[reason] ?? 0) + n;
  }

  snapshot(elapsedMs: number, current: string[], inFlight: number): ProgressEvent {
    const t = this.now();
    this.samples.push({ atMs: t, done: this.done, bytes: this.counts.bytes });
    while (this.samples.length > 2 && this.samples[0]!.atMs < t - WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const spanS = (t - first.atMs) / 1000;
    return {
      type: 'progress',
      counts: { ...this.counts, inFlight, skippedByReason: { ...this.counts.skippedByReason } },
      urlsPerSec: spanS > 0 ? (this.done - first.done) / spanS : 0,
      kbPerSec: spanS > 0 ? (this.counts.bytes - first.bytes) / 1024 / spanS : 0,
      elapsedMs,
      current,
    };
  }

  private addSkip(reason: SkipReason | null): void {
    this.counts.skipped++;
    if (reason) this.counts.skippedByReason[reason] = (this.counts.skippedByReason[reason] ?? 0) + 1;
  }
}
