import { hostname } from 'node:os';
import pg from 'pg';
import type { ClusterLimit } from '../../../shared/cluster.js';
import type { Job } from '../../../shared/job.js';
import type { RobotsRow } from '../store/catalogue.js';
import { isConnectionLoss } from './dbLink.js';
import { ClusterWorkerError } from './errors.js';
import { reachedLimit } from './limits.js';

/**
 * The workers' coordination through PostgreSQL: registration and heartbeats, taking back the leases
 * of workers that stopped heartbeating, and leasing a batch of one site's queued URLs with
 * `FOR UPDATE SKIP LOCKED`. A site is served by one worker at a time: its row names the holder,
 * set when a lease is taken and cleared when the batch commits or its worker is declared dead.
 */

/**
 * Opens a pool on the harvest's database; a URL that can't be reached fails here with the cause.
 * `extra`: further pool settings (an app watching the harvest bounds its waits).
 */
export async function openClusterDb(url: string, max = 4, extra: Omit<pg.PoolConfig, 'connectionString' | 'max'> = {}): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...extra, connectionString: url, max });
  // An idle client's error (the server restarted) must not end the process; the next query reports it.
  pool.on('error', () => {});
  try {
    (await pool.connect()).release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw new ClusterWorkerError(`cannot connect to the harvest database: ${(e as Error).message}`);
  }
  return pool;
}

/** Runs `fn` in one transaction, again when PostgreSQL chose it as a deadlock's victim. */
export async function inTransaction<T>(db: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await db.connect();
    // The pool listens for errors on idle clients only: a connection lost under a checked-out one
    // (the server restarting) would be an uncaught 'error' event, ending the process; the query
    // under way rejects with it anyway.
    const lostWhileOut = () => {};
    client.on('error', lostWhileOut);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      if (isConnectionLoss(e)) broken = e as Error;
      else await client.query('ROLLBACK').catch(() => {});
      const code = (e as { code?: string }).code;
      if ((code === '40P01' || code === '40001') && attempt < 5) continue;
      throw e;
    } finally {
      client.off('error', lostWhileOut);
      // A client whose connection broke is dropped, not handed to the next query.
      client.release(broken);
    }
  }
}

const interval = (ms: number) => `make_interval(secs => ${Math.max(0, ms) / 1000})`;

/**
 * Since when a worker (`w`: the workers row's alias) counts as silent: its last heartbeat, or the
 * database server's start when that is later. Workers cannot beat while the server is down or
 * restarting, so each is given a whole timeout from its return to reach it again before it is
 * declared dead (`pg_postmaster_start_time()` is the server's, kept across connections).
 */
export const silentSince = (w = 'workers') => `GREATEST(${w}.heartbeat_at, pg_postmaster_start_time())`;

/** Joins the harvest as `id`; refused while a live worker has that name. */
export async function registerWorker(db: pg.Pool, id: string, connections: number, timeoutMs: number): Promise<void> {
  await reclaimDead(db, timeoutMs);
  await inTransaction(db, async (c) => {
    const known = await c.query<{ state: string }>('SELECT state FROM workers WHERE id = $1 FOR UPDATE', [id]);
    if (known.rows[0]?.state === 'live') throw new ClusterWorkerError(`a live worker is already called '${id}': give this one another --id`);
    // A worker of this name that stopped cleanly holds nothing; its figures carry on.
    await c.query(
      `INSERT INTO workers (id, host, pid, connections) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET state = 'live', host = EXCLUDED.host, pid = EXCLUDED.pid, connections = EXCLUDED.connections,
         started_at = now(), heartbeat_at = now()`,
      [id, hostname(), process.pid, connections],
    );
    // The duration limit counts from the first worker's start, when the harvest begins fetching.
    await c.query('UPDATE harvest SET started_at = now() WHERE started_at IS NULL');
  });
}

/** Tells the others this worker lives; false when it was declared dead meanwhile (it must stop). */
export async function heartbeat(db: pg.Pool, id: string, batchSize: number, meanFetchMs: number | null): Promise<boolean> {
  const r = await db.query<{ state: string }>(
    `UPDATE workers SET heartbeat_at = now(), batch_size = $2, mean_fetch_ms = $3 WHERE id = $1 RETURNING state`,
    [id, batchSize, meanFetchMs],
  );
  return r.rows[0]?.state === 'live';
}

/** A worker leaving cleanly: it holds no lease by then. */
export async function stopWorker(db: pg.Pool, id: string): Promise<void> {
  await db.query(`UPDATE workers SET state = 'stopped' WHERE id = $1 AND state = 'live'`, [id]);
}

export interface Reclaimed {
  workers: string[];
  urls: number;
}

/**
 * Declares dead the workers silent for longer than the timeout, and puts their leased URLs back in
 * the queue and their sites up for the live workers. Any worker may run it; the row locks make one
 * of them do each worker's.
 */
export async function reclaimDead(db: pg.Pool, timeoutMs: number): Promise<Reclaimed> {
  return inTransaction(db, async (c) => {
    const dead = (
      await c.query<{ id: string }>(
        `UPDATE workers SET state = 'dead' WHERE state = 'live' AND ${silentSince()} < now() - ${interval(timeoutMs)} RETURNING id`,
      )
    ).rows.map((r) => r.id);
    if (dead.length === 0) return { workers: [], urls: 0 };
    const back = await c.query<{ lease_id: string; n: string }>(
      `WITH back AS (UPDATE urls SET state = 'queued', lease_id = NULL
         WHERE state = 'leased' AND lease_id IN (SELECT id FROM leases WHERE worker = ANY($1) AND done_at IS NULL) RETURNING 1)
       SELECT count(*) AS n FROM back`,
      [dead],
    );
    // A lease commits all its URLs at once, so an open lease's URLs all came back.
    await c.query(`UPDATE leases SET done_at = now(), outcome = 'reclaimed', returned = taken WHERE worker = ANY($1) AND done_at IS NULL`, [dead]);
    await c.query('UPDATE sites SET holder = NULL, free_since = now() WHERE holder = ANY($1)', [dead]);
    return { workers: dead, urls: Number(back.rows[0]?.n ?? 0) };
  });
}

/**
 * Gives back the open leases of `worker` other than `kept` (the batches it has in hand): a lease
 * whose transaction committed while its answer was lost with the connection. Returns how many URLs
 * went back to the queue.
 */
export async function releaseStrayLeases(db: pg.Pool, worker: string, kept: number[]): Promise<number> {
  return inTransaction(db, async (c) => {
    const stray = (await c.query<{ id: string; site: string }>('SELECT id, site FROM leases WHERE worker = $1 AND done_at IS NULL AND NOT (id = ANY($2::bigint[])) FOR UPDATE', [worker, kept])).rows;
    if (stray.length === 0) return 0;
    const ids = stray.map((l) => l.id);
    const back = await c.query(`UPDATE urls SET state = 'queued', lease_id = NULL WHERE state = 'leased' AND lease_id = ANY($1::bigint[])`, [ids]);
    await c.query(`UPDATE leases SET done_at = now(), outcome = 'reclaimed', returned = taken WHERE id = ANY($1::bigint[])`, [ids]);
    // Its sites are let go unless a batch in hand holds them too.
    await c.query(
      `UPDATE sites SET holder = NULL, free_since = now() WHERE holder = $1 AND site = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.site = sites.site AND l.worker = $1 AND l.done_at IS NULL)`,
      [worker, stray.map((l) => l.site)],
    );
    return back.rowCount ?? 0;
  });
}

export async function liveWorkers(db: pg.Pool, timeoutMs: number): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM workers WHERE state = 'live' AND ${silentSince()} >= now() - ${interval(timeoutMs)} ORDER BY id`);
  return r.rows.map((row) => row.id);
}

/**
 * Asks another worker for the sites it holds that the hash gives `worker` (see sites.claimed_by):
 * once that worker's batch ends, they are leased to no one else. Called by a worker with room.
 */
export async function claimOwnSites(db: pg.Pool, worker: string, owns: (site: string) => boolean): Promise<void> {
  const held = await db.query<{ site: string }>('SELECT site FROM sites WHERE holder IS NOT NULL AND holder <> $1 AND claimed_by IS DISTINCT FROM $1', [worker]);
  const mine = held.rows.map((r) => r.site).filter(owns);
  if (mine.length === 0) return;
  await db.query('UPDATE sites SET claimed_by = $1 WHERE site = ANY($2) AND holder IS NOT NULL AND holder <> $1', [worker, mine]);
}

/**
 * Sites with URLs due now; of those, the ones no worker has held for `waitingMs` (their own worker
 * serves as many sites as it may); and whether anything at all is still to do (queued or leased).
 */
export async function workToDo(db: pg.Pool, waitingMs: number): Promise<{ sites: string[]; waiting: string[]; pending: boolean }> {
  const due = await db.query<{ site: string; waiting: boolean }>(
    `SELECT s.site, (s.holder IS NULL AND s.free_since <= now() - ${interval(waitingMs)}) AS waiting
     FROM sites s WHERE EXISTS (SELECT 1 FROM urls u WHERE u.site = s.site AND u.state = 'queued' AND (u.retry_at IS NULL OR u.retry_at <= now()))`,
  );
  const pending = await db.query<{ p: boolean }>(`SELECT EXISTS (SELECT 1 FROM urls WHERE state IN ('queued', 'leased')) AS p`);
  return { sites: due.rows.map((r) => r.site), waiting: due.rows.filter((r) => r.waiting).map((r) => r.site), pending: pending.rows[0]!.p };
}

export interface LeasedUrl {
  id: number;
  url: string;
  depth: number;
  requisite: boolean;
  typeHint: string | null;
  redirectHops: number;
  attempts: number;
  /** A focused harvest's queue score; null otherwise. */
  score: number | null;
}

export interface Lease {
  id: number;
  site: string;
  urls: LeasedUrl[];
  /** robots.txt as stored for the site; null when no worker has fetched it yet. */
  robots: RobotsRow | null;
}

interface UrlDbRow {
  id: string;
  url: string;
  depth: number;
  requisite: boolean;
  type_hint: string | null;
  redirect_hops: number;
  attempts: number;
  score: number | null;
}

/**
 * How a site's queue is taken: breadth-first (depth, then discovery), or for a focused harvest
 * best-first (score, then discovery), as the local crawl's frontierOrder.ts; each has its index.
 */
const ORDER = { breadthFirst: 'depth, id', bestFirst: 'score DESC NULLS LAST, id' } as const;

/**
 * Leases up to `size` of a site's queued URLs (in `order`) to the worker, unless another worker
 * still holds the site, the harvest is paused or it reached a byte or duration limit (past the page
 * limit, only requisites). The size and the mean fetch time it was computed from are kept on the
 * lease.
 */
export async function leaseBatch(
  db: pg.Pool,
  worker: string,
  site: string,
  size: number,
  meanFetchMs: number | null,
  limits: Job['limits'],
  order: keyof typeof ORDER = 'breadthFirst',
): Promise<Lease | null> {
  return inTransaction(db, async (c) => {
    // Locked so that a reclaim running now waits for this lease and then takes it back too.
    const me = await c.query<{ state: string }>('SELECT state FROM workers WHERE id = $1 FOR SHARE', [worker]);
    if (me.rows[0]?.state !== 'live') throw new ClusterWorkerError(`worker '${worker}' was declared dead (no heartbeat within the timeout); it stops`);
    // Read under a share lock, so a pause committed before this point is always seen (see controlCluster).
    const harvest = await c.query<{ paused: boolean }>('SELECT paused FROM harvest FOR SHARE');
    if (harvest.rows[0]?.paused !== false) return null;
    // Checked here rather than trusted from the round's start: a commit past a limit that is
    // visible now stops this lease, so only batches leased before it overshoot.
    const limit = await reachedLimit(c, limits);
    if (limit === 'limit:bytes' || limit === 'limit:duration') return null;
    // A claim holds only while its worker leases: one of the live workers that activeOf(liveWorkers)
    // lets lease. A worker put on standby (harvest control --workers) before it took the site back
    // would otherwise keep the site from everyone, and the harvest would never end.
    const s = await c.query<{ holder: string | null; claimed: boolean; robots_status: number | null; robots_body: string | null; robots_error: string | null; robots_at: Date | null }>(
      `SELECT holder, claimed_by IS NOT NULL AND claimed_by <> $2 AND claimed_by IN (
           SELECT w.id FROM workers w, harvest h WHERE w.state = 'live' AND ${silentSince('w')} >= now() - make_interval(secs => h.lease_timeout_ms / 1000.0)
           ORDER BY w.id LIMIT (SELECT active_workers FROM harvest)) AS claimed,
         robots_status, robots_body, robots_error, robots_at FROM sites WHERE site = $1 FOR UPDATE OF sites`,
      [site, worker],
    );
    const siteRow = s.rows[0];
    if (siteRow === undefined || (siteRow.holder !== null && siteRow.holder !== worker) || siteRow.claimed) return null;
    const lease = await c.query<{ id: string }>('INSERT INTO leases (worker, site, batch_size, mean_fetch_ms) VALUES ($1, $2, $3, $4) RETURNING id', [
      worker,
      site,
      size,
      meanFetchMs,
    ]);
    const leaseId = Number(lease.rows[0]!.id);
    const picked = await c.query<UrlDbRow>(
      `WITH picked AS (
         SELECT id FROM urls WHERE site = $1 AND state = 'queued' AND (retry_at IS NULL OR retry_at <= now()) AND (requisite OR NOT $4)
         ORDER BY ${ORDER[order]} LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE urls u SET state = 'leased', lease_id = $3 FROM picked WHERE u.id = picked.id
       RETURNING u.id, u.url, u.depth, u.requisite, u.type_hint, u.redirect_hops, u.attempts, u.score`,
      [site, size, leaseId, limit === 'limit:pages'],
    );
    if (picked.rows.length === 0) {
      await c.query('DELETE FROM leases WHERE id = $1', [leaseId]);
      return null;
    }
    await c.query('UPDATE leases SET taken = $2 WHERE id = $1', [leaseId, picked.rows.length]);
    await c.query('UPDATE sites SET holder = $2, claimed_by = NULL WHERE site = $1', [site, worker]);
    const urls = picked.rows
      .map((r) => ({
        id: Number(r.id),
        url: r.url,
        depth: r.depth,
        requisite: r.requisite,
        typeHint: r.type_hint,
        redirectHops: r.redirect_hops,
        attempts: r.attempts,
        score: r.score,
      }))
      // The batch is fetched in the queue's order.
      .sort(order === 'bestFirst' ? (a, b) => (b.score ?? -1) - (a.score ?? -1) || a.id - b.id : (a, b) => a.depth - b.depth || a.id - b.id);
    const robots = siteRow.robots_at === null ? null : { http_status: siteRow.robots_status, body: siteRow.robots_body, error: siteRow.robots_error };
    return { id: leaseId, site, urls, robots };
  });
}

/** robots.txt as stored for a site; null when no worker has fetched it yet (or the site is not known yet). */
export async function storedRobots(db: pg.Pool, site: string): Promise<RobotsRow | null> {
  const r = (await db.query<{ robots_status: number | null; robots_body: string | null; robots_error: string | null; robots_at: Date | null }>(
    'SELECT robots_status, robots_body, robots_error, robots_at FROM sites WHERE site = $1',
    [site],
  )).rows[0];
  return r === undefined || r.robots_at === null ? null : { http_status: r.robots_status, body: r.robots_body, error: r.robots_error };
}

export async function saveRobots(db: pg.Pool, site: string, r: RobotsRow): Promise<void> {
  await db.query('UPDATE sites SET robots_status = $2, robots_body = $3, robots_error = $4, robots_at = now() WHERE site = $1', [
    site,
    r.http_status,
    r.body,
    r.error,
  ]);
}

/**
 * Records the limit reached in the harvest row (for status and every worker) and settles what is
 * queued as skipped for it, as the local crawl does: all of it for bytes and duration, pages only
 * (not requisites) for the page limit. Leased URLs are left to their batches; what their commits
 * queue later (links, retries, URLs given back) is settled by the next call, so every worker calls
 * it each round.
 */
export async function enforceLimits(db: pg.Pool, limits: Job['limits']): Promise<ClusterLimit | null> {
  const reached = await reachedLimit(db, limits);
  if (reached === null) return null;
  await inTransaction(db, async (c) => {
    // A stronger limit replaces the page limit; a final one is never replaced.
    await c.query(`UPDATE harvest SET stopped_by = $1 WHERE stopped_by IS DISTINCT FROM $1 AND (stopped_by IS NULL OR stopped_by = 'limit:pages')`, [reached]);
    await c.query(`UPDATE urls SET state = 'skipped', skip_reason = $1, retry_at = NULL WHERE state = 'queued' AND ($1 <> 'limit:pages' OR NOT requisite)`, [reached]);
  });
  return reached;
}
