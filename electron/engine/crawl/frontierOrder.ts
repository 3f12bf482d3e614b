import type { Catalogue, QueuedRow } from '../store/catalogue.js';

/**
 * The order a site's queue is taken in: breadth-first (depth, then discovery) as every crawl does,
 * or best-first by score for a focused harvest. Either way per site, so politeness and the lanes
 * work as before, and through the catalogue, so memory stays flat.
 */
export interface FrontierOrder {
  /** The site's next queued rows in this order (not those waiting for a retry). */
  next(site: string, limit: number): QueuedRow[];
  /** The site's rows an earlier run left waiting for a retry, once `next` has none. */
  retries(site: string, limit: number): QueuedRow[];
  /** Rows a site's buffer holds between reads of the catalogue. */
  readonly bufferSize: number;
  /** Whether a URL just queued with `score` should go before rows already buffered. */
  outranks(score: number | undefined, buffered: readonly QueuedRow[]): boolean;
}

export function breadthFirst(c: Catalogue): FrontierOrder {
  return { next: (site, limit) => c.nextQueued(site, limit), retries: (site, limit) => c.nextRetry(site, limit), bufferSize: 64, outranks: () => false };
}

/**
 * Small buffers, and a better URL empties them (they are re-read, never lost: rows are leased only
 * once taken): a page's best links are fetched next rather than after what was buffered before.
 */
export function bestFirst(c: Catalogue): FrontierOrder {
  return {
    next: (site, limit) => c.nextQueuedBest(site, limit),
    retries: (site, limit) => c.nextRetry(site, limit),
    bufferSize: 4,
    outranks: (score, buffered) => score !== undefined && buffered.some((r) => (r.score ?? 0) < score),
  };
}
