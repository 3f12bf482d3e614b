/**
 * The design's allocation rule: a worker's next batch is what it can fetch within the target lease
 * time at its own recent pace, batch = clamp(target lease seconds × connections / mean fetch
 * seconds). A fast worker gets more URLs per lease, a slow one fewer, so the harvest's tail does not
 * wait on a slow worker's long batch.
 */
export interface BatchSizing {
  /** How long one lease should take to fetch, in ms. */
  targetLeaseMs: number;
  /** Parallel requests per site (the job's connections per host). */
  connections: number;
  min: number;
  max: number;
}

export const DEFAULT_TARGET_LEASE_MS = 10_000;
export const MIN_BATCH = 1;
export const MAX_BATCH = 1_000;

/** Fetches remembered for the mean: a few batches' worth, so a change of pace shows soon. */
const WINDOW = 64;

export function batchSize(meanFetchMs: number | null, s: BatchSizing): number {
  // Before any fetch: a small first batch that measures the pace.
  if (meanFetchMs === null) return Math.max(s.min, Math.min(s.max, 2 * s.connections));
  const n = Math.floor((s.targetLeaseMs * s.connections) / Math.max(meanFetchMs, 1));
  return Math.max(s.min, Math.min(s.max, n));
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
