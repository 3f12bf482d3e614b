import { ADAPTIVE_DELAY_FLOOR_MS } from '../../../shared/job.js';

/**
 * The design's allocation rule: a worker's next batch is what it can fetch within the target lease
 * time at its real pace on one site. That pace is the slower of two: its recent mean fetch time
 * spread over the connections per host, and the gap the politeness leaves between two request
 * starts to a host (the job's delay, or the adaptive one of twice the response time, raised by the
 * site's robots.txt Crawl-delay). A fast worker gets more URLs per lease, a slow one or a polite
 * job fewer, so a lease takes about its target and a worker lost mid-lease costs no more than that.
 */
export interface BatchSizing {
  /** How long one lease should take to fetch, in ms. */
  targetLeaseMs: number;
  /** Parallel requests per site (the job's connections per host). */
  connections: number;
  /** The job's delay between two requests to a host; null: the adaptive one. */
  delayMs: number | null;
  min: number;
  max: number;
}

export const DEFAULT_TARGET_LEASE_MS = 10_000;
export const MIN_BATCH = 1;
export const MAX_BATCH = 1_000;
/** The adaptive delay's ceiling: twice a response time, up to a minute. */
export const MAX_ADAPTIVE_DELAY_MS = 60_000;

/** Fetches remembered for the mean: a few batches' worth, so a change of pace shows soon. */
const WINDOW = 64;

export function batchSize(meanFetchMs: number | null, s: BatchSizing, crawlDelayMs = 0): number {
  const clamp = (n: number) => Math.max(s.min, Math.min(s.max, n));
  // Before any fetch: a small first batch that measures the pace, within the target at a fixed delay.
  if (meanFetchMs === null) return clamp(Math.min(2 * s.connections, Math.floor(s.targetLeaseMs / Math.max(s.delayMs ?? 0, crawlDelayMs, 1))));
  const gap = Math.max(s.delayMs ?? Math.max(ADAPTIVE_DELAY_FLOOR_MS, Math.min(2 * meanFetchMs, MAX_ADAPTIVE_DELAY_MS)), crawlDelayMs);
  const perUrl = Math.max(meanFetchMs / s.connections, gap, 1);
  return clamp(Math.floor(s.targetLeaseMs / perUrl));
}

/** The worker's recent fetch times (request start to last byte, robots.txt and failures included). */
export class FetchTimes {
  private readonly times: number[] = [];
  private next = 0;

  record(ms: number): void {
    if (this.times.length < WINDOW) this.times.push(ms);
    else this.times[this.next] = ms;
    this.next = (this.next + 1) % WINDOW;
  }

  mean(): number | null {
    if (this.times.length === 0) return null;
    return this.times.reduce((a, b) => a + b, 0) / this.times.length;
  }
}
