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
  /** Paused: no worker takes a new lease; batches in flight finish and commit. False resumes. */
  paused?: boolean;
}

/** What is in force after a change. */
export interface ClusterSettings {
  politeness: Job['politeness'];
  activeWorkers: number | null;
  paused: boolean;
}

/**
 * Records the change in the harvest row, where every worker reads its settings before each round
 * of leasing: it is in force across the cluster within a round (about 100 ms), and a worker that
 * starts later gets it too. The row lock also orders a pause against leasing (leaseBatch reads the
 * flag under a share lock): once this returns, no lease is taken until resumed. Returns what is now
 * in force.
 */
export async function controlCluster(db: pg.Pool, control: ClusterControl): Promise<ClusterSettings> {
  await readHarvest(db); // a database without a harvest, or of another version, is named here
  return inTransaction(db, async (c) => {
    const row = (await c.query<{ job: unknown; active_workers: number | null; paused: boolean }>('SELECT job, active_workers, paused FROM harvest FOR UPDATE')).rows[0]!;
    const job = parseJob(row.job);
    const politeness = control.politeness === undefined ? job.politeness : applyControl(job, control.politeness);
    const activeWorkers = control.activeWorkers === undefined ? row.active_workers : control.activeWorkers;
    const paused = control.paused ?? row.paused;
    await c.query('UPDATE harvest SET job = $1, active_workers = $2, paused = $3', [JSON.stringify({ ...job, politeness }), activeWorkers, paused]);
    return { politeness, activeWorkers, paused };
  });
}

/** The live workers (sorted by id) that lease under the harvest's active-worker count. */
export function activeOf(live: readonly string[], activeWorkers: number | null): string[] {
  return activeWorkers === null ? [...live] : live.slice(0, activeWorkers);
}
