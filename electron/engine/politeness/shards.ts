import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest-random-weight) hashing of sites onto workers: each site goes to the worker
 * with the highest hash(worker, site), so adding or removing a worker moves only the sites that
 * worker wins or held (about 1/N of them), and every process computes the same assignment.
 */
export function workerForSite(site: string, workers: readonly string[]): string {
  if (workers.length === 0) throw new Error('no workers to assign sites to');
  let best = workers[0]!;
  let bestScore = -1n;
  for (const w of workers) {
    const score = createHash('sha256').update(w).update('\0').update(site).digest().readBigUInt64BE(0);
    if (score > bestScore) {
      bestScore = score;
      best = w;
    }
  }
  return best;
}
