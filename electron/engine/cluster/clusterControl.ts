import type pg from 'pg';
import { parseJob, type Job, type LiveControl } from '../../../shared/job.js';
import { applyControl } from '../crawl/liveControl.js';
import { inTransaction } from './coordination.js';
import { readHarvest } from './schema.js';

/** A change to a running cluster harvest: politeness for every worker, and how many workers lease. */
export interface ClusterControl {
  politeness?: LiveControl;
  /** The first `activeWorkers` live workers by id lease; the others stand by. Null: every one. */
  activeWorkers?: number | null;
}

/**
 * Records the change in the harvest row, where every worker reads its settings before each round
 * of leasing: it is in force across the cluster within a round (about 100 ms), and a worker that
 * starts later gets it too. Returns the politeness and worker count now in force.
 */
export async function controlCluster(db: pg.Pool, control: ClusterControl): Promise<{ politeness: Job['politeness']; activeWorkers: number | null }> {
  await readHarvest(db); // a database without a harvest, or of another version, is named here
  return inTransaction(db, async (c) => {
    const row = (await c.query<{ job: unknown; active_workers: number | null }>('SELECT job, active_workers FROM harvest FOR UPDATE')).rows[0]!;
    const job = parseJob(row.job);
    const politeness = control.politeness === undefined ? job.politeness : applyControl(job, control.politeness);
    const activeWorkers = control.activeWorkers === undefined ? row.active_workers : control.activeWorkers;
    await c.query('UPDATE harvest SET job = $1, active_workers = $2', [JSON.stringify({ ...job, politeness }), activeWorkers]);
    return { politeness, activeWorkers };
  });
}

/** The live workers (sorted by id) that lease under the harvest's active-worker count. */
export function activeOf(live: readonly string[], activeWorkers: number | null): string[] {
  return activeWorkers === null ? [...live] : live.slice(0, activeWorkers);
}
