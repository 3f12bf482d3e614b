import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterStatus } from '../../shared/cluster.js';
import type { UrlRecord } from '../../shared/crawl.js';
import { exitWithin, killRunning, pendingWork, startWorker, type Worker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startMultiSite, type MultiSite } from '../helpers/multiSite.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

/**
 * PostgreSQL interrupted under a running cluster harvest: restarted, and stopped for longer than the
 * lease timeout. The workers wait for it with the batches they hold, and the harvest ends with what
 * an undisturbed crawl of the same sites has; a worker that gave up is shown dead.
 */
const SITES = 4;
const PAGES = 50;
/** Long enough between two requests to a site that the crawl is still running when the fault comes. */
const DELAY_MS = 100;
/** Target lease time of the workers: at DELAY_MS, a batch of 10 URLs. */
const LEASE_S = 1;
const LEASE_TIMEOUT_S = 4;

describe('cluster workers through a PostgreSQL interruption', { timeout: 300_000 }, () => {
  let postgres: ThrowawayPostgres;
  let site: MultiSite;
  let work: string;
  let serial = 0;
  let single: Map<string, string>;
  const running: Worker[] = [];

  const seeds = () => site.origins.map((o) => `${o}/`);
  const sorted = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  async function newHarvest(): Promise<{ db: string; store: string }> {
    const name = `o${++serial}`;
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--delay-ms', String(DELAY_MS), '--lease-timeout', String(LEASE_TIMEOUT_S), ...seeds()]);
    assert.equal(init.status, 0, init.stderr);
    return { db, store: path.join(work, `store-${name}`) };
  }

  function workers(db: string, store: string, ids: string[], firstAddress: number, extra: string[] = []): Worker[] {
    const ws = ids.map((id, i) => startWorker(db, store, id, `127.0.0.${firstAddress + i}`, ['--lease-seconds', String(LEASE_S), ...extra]));
    running.push(...ws);
    return ws;
  }

  /** Waits (bounded) until the harvest has archived `n` URLs: the fault then comes mid-crawl. */
  async function archivedAtLeast(db: string, n: number): Promise<void> {
    const until = Date.now() + 60_000;
    for (;;) {
      const [row] = await query<{ n: string }>(db, `SELECT count(*) AS n FROM urls WHERE state = 'archived'`);
      if (Number(row!.n) >= n) return;
      assert.ok(Date.now() < until, `the harvest archived ${row!.n} URLs in 60 s, not ${n}`);
      await sleep(100);
    }
  }

  async function status(db: string): Promise<ClusterStatus> {
    const r = await runHarvest(['cluster', 'status', '--db', db, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as ClusterStatus;
  }

  const states = async (db: string) => new Map((await query<{ url: string; state: string }>(db, 'SELECT url, state FROM urls')).map((r) => [r.url, r.state]));
  const repeated = (since: number) => [...site.requestsPerUrl(since)].filter(([, n]) => n > 1);

  before(async () => {
    postgres = await startPostgres();
    site = await startMultiSite({ sites: SITES, pages: PAGES, latencyMs: 20, firstAddress: 150 });
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-outage-'));
    const out = path.join(work, 'single');
    const crawl = await runHarvest(['crawl', ...seeds(), '--out', out, '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    const list = await runHarvest(['list', out, '--json']);
    single = new Map(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as UrlRecord)
        .map((r) => [r.url, r.state]),
    );
  });

  after(async () => {
    killRunning(running);
    await site?.stop();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a restart mid-crawl: every worker waits for it and goes on, nothing lost, nothing fetched twice', async () => {
    const { db, store } = await newHarvest();
    const since = Date.now();
    const ws = workers(db, store, ['r1', 'r2', 'r3'], 161);
    await archivedAtLeast(db, 30);
    await postgres.down();
    await postgres.up();
    for (const w of ws) assert.equal(await exitWithin(w, 90_000, () => pendingWork(db)), 0, w.log());

    assert.deepEqual(sorted(await states(db)), sorted(single));
    // Every batch in hand was committed after the restart: none was taken back and fetched again.
    assert.deepEqual(repeated(since), []);
    for (const w of ws) {
      assert.match(w.log(), /lost the harvest database while .*waiting for it to come back.*for up to 300 s/, w.log());
      assert.match(w.log(), /the harvest database answers again after/, w.log());
      assert.doesNotMatch(w.log(), /\n\s+at /, 'no stack trace');
    }
    const s = await status(db);
    assert.deepEqual(
      s.workers.map((w) => [w.id, w.state, w.returned]),
      ws.map((w) => [w.id, 'stopped', 0]),
    );
    // Batch sizing by the delay: a lease holds what DELAY_MS allows in LEASE_S (the fetch times
    // alone, 20 ms on 2 connections, would have given 100 URLs).
    const sizes = await query<{ batch_size: number }>(db, 'SELECT batch_size FROM leases');
    assert.ok(sizes.length > 0);
    for (const { batch_size } of sizes) assert.ok(batch_size <= (LEASE_S * 1000) / DELAY_MS, `a batch of ${batch_size}`);
  });

  it('a stop longer than the lease timeout: the workers wait it out; one told to wait less gives up with the cause and is shown dead', async () => {
    const { db, store } = await newHarvest();
    const since = Date.now();
    const ws = workers(db, store, ['s1', 's2', 's3'], 164);
    const [quitter] = workers(db, store, ['s4'], 167, ['--db-wait-seconds', '2']);
    await archivedAtLeast(db, 30);
    await postgres.down();
    try {
      // The worker told to wait 2 s gives up while the database is down: one clear line, exit 2 (a known error).
      assert.equal(await exitWithin(quitter!, 30_000), 2, quitter!.log());
      assert.match(quitter!.log(), /the harvest database has not answered for \d+ s \(.*(ECONNREFUSED|terminat|shut).*\): this worker gives up/, quitter!.log());
      assert.doesNotMatch(quitter!.log(), /\n\s+at /, 'no stack trace');
      // Down for twice the lease timeout in all.
      await sleep(2 * LEASE_TIMEOUT_S * 1000 - 2_000);
      for (const w of ws) assert.equal(w.child.exitCode, null, `${w.id} still waits:\n${w.log()}`);
    } finally {
      await postgres.up();
    }
    for (const w of ws) assert.equal(await exitWithin(w, 90_000, () => pendingWork(db)), 0, w.log());

    assert.deepEqual(sorted(await states(db)), sorted(single));
    const s = await status(db);
    const byId = new Map(s.workers.map((w) => [w.id, w]));
    for (const w of ws) assert.equal(byId.get(w.id)?.state, 'stopped', w.id);
    assert.equal(byId.get('s4')?.state, 'dead');
    // Only what the worker that gave up held was fetched again.
    const again = repeated(since).length;
    assert.ok(again <= byId.get('s4')!.returned, `${again} URLs fetched twice, ${byId.get('s4')!.returned} taken back from s4`);
    for (const w of ws) assert.equal(byId.get(w.id)!.returned, 0, `${w.id} lost nothing`);
  });

  it('cluster status shows a killed worker dead once it is silent past the timeout, with no worker left to declare it', async () => {
    const { db, store } = await newHarvest();
    const [w] = workers(db, store, ['k1'], 168);
    await archivedAtLeast(db, 5);
    w!.child.kill('SIGKILL');
    await w!.exit;
    const first = (await status(db)).workers[0]!;
    if (first.silentS < LEASE_TIMEOUT_S - 0.5) assert.equal(first.state, 'live', `silent ${first.silentS} s, less than the timeout`);
    const until = Date.now() + 30_000;
    for (;;) {
      const shown = (await status(db)).workers[0]!;
      if (shown.state === 'dead') break;
      assert.ok(Date.now() < until, `still shown ${shown.state} after ${shown.silentS} s of silence`);
      await sleep(500);
    }
    const [row] = await query<{ state: string }>(db, `SELECT state FROM workers WHERE id = 'k1'`);
    assert.equal(row!.state, 'live', 'no worker declared it: status itself tells');
  });
});
