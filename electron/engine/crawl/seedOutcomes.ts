import type { Catalogue } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';

export interface UnreachedSeed {
  seed: string;
  /** The record's reason, e.g. "skipped: robots:unreachable: robots.txt unreachable: network: connect ECONNREFUSED …". */
  reason: string;
}

/** Redirect hops followed from a seed to the URL that answered; a loop ends the walk. */
const MAX_HOPS = 32;

/**
 * The seeds whose site could not be reached: the seed (or the end of its redirect chain) failed
 * without an answer, or robots.txt could not be had so the site was kept out. A seed answered with
 * an HTTP error was reached: the server spoke.
 */
export function unreachedSeeds(c: Catalogue, seeds: readonly string[]): { total: number; unreached: UnreachedSeed[] } {
  const unreached: UnreachedSeed[] = [];
  let total = 0;
  for (const seed of seeds) {
    const url = canonicalize(seed);
    if (url === null) continue;
    total++;
    let record = c.recordOf(url);
    for (let hop = 0; hop < MAX_HOPS && record?.state === 'redirect' && record.redirectTo !== null; hop++) {
      record = c.recordOf(record.redirectTo);
    }
    if (record === null) continue;
    const kept = record.state === 'skipped' && record.skipReason === 'robots:unreachable';
    if (record.state === 'failed' || kept) unreached.push({ seed, reason: record.reason ?? record.state });
  }
  return { total, unreached };
}

/**
 * What a finished crawl says of its seeds: null when every one was reached, else which were not
 * and why; `none` when no seed was reached (the crawl then ends failed).
 */
export function unreachedProblem(c: Catalogue, seeds: readonly string[]): { problem: string | null; none: boolean } {
  const { total, unreached } = unreachedSeeds(c, seeds);
  if (unreached.length === 0) return { problem: null, none: false };
  const list = unreached.map((u) => `${u.seed}: ${u.reason}`).join('; ');
  const none = unreached.length === total;
  return { problem: none ? `no seed could be reached: ${list}` : `${unreached.length} of ${total} seeds could not be reached: ${list}`, none };
}
