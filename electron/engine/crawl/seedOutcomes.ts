import type { Catalogue } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { seedAdvice } from './seedAdvice.js';

export interface FailedSeed {
  seed: string;
  /** Why it gave nothing, for an archivist (seedAdvice). */
  why: string;
}

/** Redirect hops followed from a seed to the URL that answered; a loop ends the walk. */
const MAX_HOPS = 32;

/**
 * The seeds that gave nothing: the seed (or the end of its redirect chain) failed without an
 * answer, answered with an HTTP error, or was kept out (robots.txt, scope). A seed still queued or
 * cut by a limit is not counted: the crawl stopped before it, it did not fail.
 */
export function failedSeeds(c: Catalogue, seeds: readonly string[]): { total: number; failed: FailedSeed[] } {
  const failed: FailedSeed[] = [];
  let total = 0;
  for (const seed of seeds) {
    const url = canonicalize(seed);
    if (url === null) continue;
    total++;
    let record = c.recordOf(url);
    for (let hop = 0; hop < MAX_HOPS && record?.state === 'redirect' && record.redirectTo !== null; hop++) {
      record = c.recordOf(record.redirectTo);
    }
    if (record === null || record.state === 'archived' || record.state === 'queued') continue;
    if (record.state === 'skipped' && record.skipReason?.startsWith('limit:')) continue;
    failed.push({ seed, why: seedAdvice(url, record) });
  }
  return { total, failed };
}

/**
 * What a finished crawl says of its seeds: null when every one gave something, else which did not
 * and why; `none` when none did (the crawl then ends failed: an empty archive is not a harvest).
 */
export function failedSeedsProblem(c: Catalogue, seeds: readonly string[]): { problem: string | null; none: boolean } {
  const { total, failed } = failedSeeds(c, seeds);
  if (failed.length === 0) return { problem: null, none: false };
  const list = failed.map((u) => `${u.seed}: ${u.why}`).join('; ');
  const none = failed.length === total;
  if (none) return { problem: `nothing was harvested: ${list}`, none };
  return { problem: `${failed.length} of ${total} seeds could not be harvested: ${list}`, none };
}
