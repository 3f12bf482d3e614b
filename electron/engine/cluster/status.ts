import type pg from 'pg';
import { RATE_WINDOW_S, type ClusterStatus, type WorkerStatus } from '../../../shared/cluster.js';
import { activeOf } from './clusterControl.js';
import { silentSince } from './coordination.js';
import { focusCounts } from './focusPages.js';
import { readHarvest } from './schema.js';

/** The harvest's counts, settings and workers, as `harvest cluster status` and an attached app show them. */
export async function clusterStatus(db: pg.Pool): Promise<ClusterStatus> {
  const harvest = await readHarvest(db);
  const counts: Record<string, number> = {};
  for (const r of (await db.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM urls GROUP BY state')).rows) counts[r.state] = Number(r.n);
  const workers = await db.query<{
    id: string;
    host: string;
    state: WorkerStatus['state'];
    silent_s: number;
    batch_size: number;
    mean_fetch_ms: number | null;
    fetched: string;
    failures: string;
    bytes: string;
    recent: string;
    sites: string[] | null;
    leases: string;
    returned: string;
    overdue: boolean;
  }>(
    `SELECT w.id, w.host, w.state, extract(epoch FROM now() - w.heartbeat_at)::float8 AS silent_s, w.batch_size, w.mean_fetch_ms,
       w.fetched, w.failures, w.bytes,
       (SELECT count(*) FROM urls u WHERE u.fetched_by = w.id AND u.fetched_at > now() - make_interval(secs => $1)) AS recent,
       (SELECT array_agg(s.site ORDER BY s.site) FROM sites s WHERE s.holder = w.id) AS sites,
       (SELECT count(*) FROM leases l WHERE l.worker = w.id) AS leases,
       (SELECT coalesce(sum(l.returned), 0) FROM leases l WHERE l.worker = w.id) AS returned,
       ${silentSince('w')} < now() - make_interval(secs => $2 / 1000.0) AS overdue
     FROM workers w ORDER BY w.id`,
    [RATE_WINDOW_S, harvest.leaseTimeoutMs],
  );
  // A live worker silent past the timeout is dead, whether or not a worker has declared it so yet
  // (none may be left to: a process that crashed does not say so).
  const rows = workers.rows.map((w) => ({ ...w, state: w.state === 'live' && w.overdue ? ('dead' as const) : w.state }));
  const active = new Set(activeOf(rows.filter((w) => w.state === 'live').map((w) => w.id), harvest.activeWorkers));
  const pending = (counts.queued ?? 0) + (counts.leased ?? 0);
  return {
    name: harvest.name,
    counts,
    pending,
    finished: (counts.leased ?? 0) === 0 && (pending === 0 || harvest.stoppedBy !== null),
    activeWorkers: harvest.activeWorkers,
    paused: harvest.paused,
    limit: harvest.stoppedBy,
    politeness: harvest.job.politeness,
    ...(harvest.job.template !== null && { focus: await focusCounts(db) }),
    workers: rows.map((w) => ({
      id: w.id,
      host: w.host,
      state: w.state,
      standby: w.state === 'live' && !active.has(w.id),
      silentS: Math.round(w.silent_s * 10) / 10,
      rate: Math.round((Number(w.recent) / RATE_WINDOW_S) * 10) / 10,
      batchSize: w.batch_size,
      meanFetchMs: w.mean_fetch_ms === null ? null : Math.round(w.mean_fetch_ms),
      sites: w.sites ?? [],
      fetched: Number(w.fetched),
      failures: Number(w.failures),
      bytes: Number(w.bytes),
      leases: Number(w.leases),
      returned: Number(w.returned),
    })),
  };
}

/** Each lease's batch size and the mean fetch time behind it, oldest first: the allocation history. */
export async function leaseHistory(db: pg.Pool, worker: string): Promise<{ batchSize: number; taken: number; meanFetchMs: number | null }[]> {
  const r = await db.query<{ batch_size: number; taken: number; mean_fetch_ms: number | null }>(
    'SELECT batch_size, taken, mean_fetch_ms FROM leases WHERE worker = $1 ORDER BY id',
    [worker],
  );
  return r.rows.map((l) => ({ batchSize: l.batch_size, taken: l.taken, meanFetchMs: l.mean_fetch_ms }));
}
