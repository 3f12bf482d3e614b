import type pg from 'pg';
import type { ClusterLimit } from '../../../shared/cluster.js';
import { parseJob, type Job } from '../../../shared/job.js';
import { canonicalize } from '../url/canonical.js';
import { FocusJudge } from '../focus/focusJudge.js';
import { ClusterSetupError } from './errors.js';
import { FOCUS_TABLES } from './focusPages.js';

/** Bumped when the tables change; a worker of another version refuses the harvest. */
export const CLUSTER_SCHEMA_VERSION = 6;

/**
 * One cluster harvest per PostgreSQL database: the job, the frontier (one row per canonical URL with
 * its state; `leased` while a worker holds it), the sites (robots.txt, which worker holds the site
 * now), the workers and their heartbeats, every lease with the batch size it was given and the
 * worker's mean fetch time then (so the allocation history stays visible), and the query-variant
 * counts of the trap guard. A focused harvest adds its verdict and extraction tables (focusPages.ts).
 */
const TABLES = `
CREATE TABLE harvest (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  schema_version int NOT NULL,
  name text NOT NULL,
  job jsonb NOT NULL,
  seed_redirects jsonb NOT NULL DEFAULT '[]',
  lease_timeout_ms int NOT NULL,
  -- how many of the live workers lease (the first ones by id); NULL: every one
  active_workers int CHECK (active_workers >= 1),
  -- paused: workers take no new lease (their batches in flight finish) until it is cleared
  paused boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- when the first worker joined: the duration limit counts from here
  started_at timestamptz,
  -- the job limit the harvest reached (the page limit may give way to the byte or duration one)
  stopped_by text CHECK (stopped_by IN ('limit:pages', 'limit:bytes', 'limit:duration'))
);
CREATE TABLE workers (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid int NOT NULL,
  state text NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'stopped', 'dead')),
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  connections int NOT NULL,
  batch_size int NOT NULL DEFAULT 0,
  mean_fetch_ms double precision,
  fetched bigint NOT NULL DEFAULT 0,
  failures bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  -- HTML pages archived, summed over the workers for the page limit
  pages bigint NOT NULL DEFAULT 0
);
CREATE TABLE sites (
  site text PRIMARY KEY,
  holder text REFERENCES workers (id),
  -- since when no worker holds it (a site waiting long is served by any worker with room)
  free_since timestamptz NOT NULL DEFAULT now(),
  -- its own worker by the hash, with room for it, asking for it back from the worker that took it
  -- while it waited: that worker leases it no more (schema 6)
  claimed_by text REFERENCES workers (id),
  robots_status int,
  robots_body text,
  robots_error text,
  robots_at timestamptz
);
CREATE TABLE leases (
  id bigserial PRIMARY KEY,
  worker text NOT NULL REFERENCES workers (id),
  site text NOT NULL REFERENCES sites (site),
  batch_size int NOT NULL,
  taken int NOT NULL DEFAULT 0,
  mean_fetch_ms double precision,
  taken_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  outcome text CHECK (outcome IN ('done', 'reclaimed')),
  returned int NOT NULL DEFAULT 0
);
CREATE INDEX leases_open ON leases (worker) WHERE done_at IS NULL;
CREATE TABLE urls (
  id bigserial PRIMARY KEY,
  url text NOT NULL UNIQUE,
  site text NOT NULL REFERENCES sites (site),
  depth int NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'leased', 'archived', 'redirect', 'http-error', 'failed', 'skipped')),
  requisite boolean NOT NULL,
  parent_id bigint,
  via text,
  type_hint text,
  redirect_hops int NOT NULL DEFAULT 0,
  skip_reason text,
  error text,
  http_status int,
  content_type text,
  bytes bigint,
  local_path text,
  redirect_to_id bigint,
  title text,
  attempts int NOT NULL DEFAULT 0,
  retry_at timestamptz,
  lease_id bigint REFERENCES leases (id),
  fetched_by text,
  fetched_at timestamptz,
  fetches int NOT NULL DEFAULT 0,
  -- a focused harvest's best-first score (filter level + link score, see focus/focusJudge.ts); NULL otherwise
  score double precision
);
CREATE INDEX urls_queue ON urls (site, depth, id) WHERE state = 'queued';
CREATE INDEX urls_leased ON urls (lease_id) WHERE state = 'leased';
CREATE TABLE query_variants (key text PRIMARY KEY, n int NOT NULL);
`;

/** How long a worker may go without a heartbeat before its leases are taken back. */
export const DEFAULT_LEASE_TIMEOUT_MS = 15_000;

/**
 * Creates the harvest's tables and queues its seeds, in one transaction: a database that already
 * holds a harvest is refused (and left as it was).
 */
/** Seed-list URLs inserted per statement: a list of many sites never sits in memory whole. */
const SEED_BATCH = 5_000;

/**
 * Creates the harvest: its job, and the job's seeds queued, with every URL of `seedList` (canonical
 * URLs, harvest crawl --seeds-file's) as a seed too, all in one transaction. Returns how many
 * distinct seeds were queued.
 */
export async function initCluster(db: pg.Pool, job: Job, leaseTimeoutMs = DEFAULT_LEASE_TIMEOUT_MS, seedList?: AsyncIterable<string>): Promise<number> {
  const client = await db.connect();
  try {
    const existing = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'harvest'`);
    if (Number(existing.rows[0]!.n) > 0) throw new ClusterSetupError('this database already holds a harvest: use another database, or drop its tables first');
    await client.query('BEGIN');
    await client.query(TABLES);
    if (job.template !== null) await client.query(FOCUS_TABLES);
    await client.query('INSERT INTO harvest (schema_version, name, job, lease_timeout_ms) VALUES ($1, $2, $3, $4)', [
      CLUSTER_SCHEMA_VERSION,
      job.name,
      JSON.stringify(job),
      leaseTimeoutMs,
    ]);
    // A focused harvest's seeds go first in their sites' queues, as in a local one.
    const seedScore = job.template === null ? null : new FocusJudge(job.template).seedScore;
    const queue = async (urls: string[]): Promise<number> => {
      const sites = urls.map((u) => new URL(u).origin);
      await client.query('INSERT INTO sites (site) SELECT DISTINCT unnest($1::text[]) ON CONFLICT DO NOTHING', [sites]);
      const added = await client.query(
        `INSERT INTO urls (url, site, depth, state, requisite, via, type_hint, score)
         SELECT u, s, 0, 'queued', false, 'seed', 'html', $3 FROM unnest($1::text[], $2::text[]) AS t(u, s) ON CONFLICT DO NOTHING`,
        [urls, sites, seedScore],
      );
      return added.rowCount ?? 0;
    };
    let seeds = await queue([...new Set(job.seeds.map((s) => canonicalize(s)).filter((u) => u !== null))]);
    let batch: string[] = [];
    for await (const url of seedList ?? []) {
      batch.push(url);
      if (batch.length < SEED_BATCH) continue;
      seeds += await queue(batch);
      batch = [];
    }
    if (batch.length > 0) seeds += await queue(batch);
    await client.query('COMMIT');
    return seeds;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

export interface HarvestRow {
  name: string;
  job: Job;
  seedRedirects: string[];
  leaseTimeoutMs: number;
  /** How many of the live workers lease (`harvest control --workers`); null: every one. */
  activeWorkers: number | null;
  /** Paused (`harvest control --pause`): no worker takes a new lease. */
  paused: boolean;
  /** The job limit the harvest reached, or null. */
  stoppedBy: ClusterLimit | null;
}

/** The harvest's job and settings; a database without one, or of another version, is a clear error. */
export async function readHarvest(db: pg.Pool | pg.PoolClient): Promise<HarvestRow> {
  let rows: {
    schema_version: number;
    name: string;
    job: unknown;
    seed_redirects: string[];
    lease_timeout_ms: number;
    active_workers: number | null;
    paused: boolean;
    stopped_by: ClusterLimit | null;
  }[];
  try {
    // Every column, so a harvest of another version (other columns) reaches the version check below.
    rows = (await db.query('SELECT * FROM harvest')).rows;
  } catch (e) {
    if ((e as { code?: string }).code === '42P01') throw new ClusterSetupError("this database holds no harvest: create one with 'harvest cluster init'");
    throw e;
  }
  const row = rows[0];
  if (row === undefined) throw new ClusterSetupError("this database holds no harvest: create one with 'harvest cluster init'");
  if (row.schema_version !== CLUSTER_SCHEMA_VERSION) {
    throw new ClusterSetupError(`the harvest was made by another version of Harvest (schema ${row.schema_version}, this one reads ${CLUSTER_SCHEMA_VERSION})`);
  }
  return {
    name: row.name,
    job: parseJob(row.job),
    seedRedirects: row.seed_redirects,
    leaseTimeoutMs: row.lease_timeout_ms,
    activeWorkers: row.active_workers,
    paused: row.paused,
    stoppedBy: row.stopped_by,
  };
}
