import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ClusterView } from '../../shared/cluster.js';
import type { HostEvent, Reply } from '../../shared/contract.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { freePort } from '../helpers/benchSite.js';
import { startWorker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { startMultiSite, type MultiSite } from '../helpers/multiSite.js';
import { startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

const PASSWORD = 's3cret-Pw';
const WORKERS = ['a1', 'a2'];
const ADDRESSES = ['127.0.0.81', '127.0.0.82'];

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const clusterEvent = (id: string, ok: (v: ClusterView) => boolean) => (e: HostEvent) => e.type === 'cluster' && e.cluster.id === id && ok(e.cluster);

describe('the app attached to a cluster harvest', { timeout: 300_000 }, () => {
  let postgres: ThrowawayPostgres;
  let site: MultiSite;
  let work: string;
  let host: EngineHost;
  const events = new EventLog();

  before(async () => {
    postgres = await startPostgres();
    site = await startMultiSite({ sites: 2, pages: 60, latencyMs: 50, firstAddress: 70 });
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-attach-'));
    host = startEngineHost({
      dataDir: path.join(work, 'data'),
      exporters: {},
      shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/', ...WEB_SHELL_ACTIONS },
      clusterPollMs: 200,
    });
    host.onEvent(events.listener);
  });

  after(async () => {
    await host?.shutdown();
    await site?.stop();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('names the cause when it cannot attach: no PostgreSQL there, no harvest in the database, not a PostgreSQL URL', async () => {
    const closed = await freePort();
    const refused = await host.handle('clusters.attach', { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${closed}/harvest` });
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.error.code === 'unavailable', JSON.stringify(refused));
    assert.match(refused.error.message, /ECONNREFUSED/);
    assert.match(refused.error.message, new RegExp(`postgres://postgres@127\\.0\\.0\\.1:${closed}/harvest`));
    assert.ok(!refused.error.message.includes(PASSWORD), refused.error.message);

    const empty = await host.handle('clusters.attach', { url: postgres.url });
    assert.ok(!empty.ok && empty.error.code === 'not-found', JSON.stringify(empty));
    assert.match(empty.error.message, /holds no harvest/);

    const notPg = await host.handle('clusters.attach', { url: 'http://127.0.0.1/harvest' });
    assert.ok(!notPg.ok && notPg.error.code === 'invalid-args', JSON.stringify(notPg));
    assert.deepEqual(value(await host.handle('clusters.list', {})), []);
  });

  it('watches progress and the workers, pauses (no URL fetched while paused) and resumes to the end', async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE attach1');
    await admin.end();
    const db = postgres.url.replace(/\/harvest$/, '/attach1');
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', 'attached', '--delay-ms', '0', '--lease-timeout', '2', ...site.origins.map((o) => `${o}/`)]);
    assert.equal(init.status, 0, init.stderr);
    // Slow answers, so the harvest is still running when paused.
    for (const a of ADDRESSES) site.slowFor.set(a, 250);
    const withPassword = db.replace('postgres@', `postgres:${PASSWORD}@`);
    const attached = value<ClusterView>(await host.handle('clusters.attach', { url: withPassword }));
    assert.equal(attached.db, db, 'the URL shown has no password');
    assert.equal(attached.status?.name, 'attached');
    assert.equal(attached.status?.paused, false);

    const since = Date.now();
    const servedFrom = (t: number) => site.served.filter((s) => s.startMs >= t);
    const workers = WORKERS.map((id, i) => startWorker(db, path.join(work, 'store'), id, ADDRESSES[i]!, ['--lease-seconds', '1']));
    try {
      // Progress and the per-worker table, from the host's own reads.
      const watched = await events.next(
        clusterEvent(attached.id, (v) => (v.status?.counts.archived ?? 0) > 0 && WORKERS.every((w) => v.status?.workers.some((s) => s.id === w && s.state === 'live'))),
        60_000,
      );
      assert.equal(watched.type === 'cluster' && watched.cluster.error, null);
      await events.next(clusterEvent(attached.id, (v) => (v.status?.workers ?? []).some((w) => w.rate > 0 && w.fetched > 0 && w.batchSize > 0)), 60_000);
      while (servedFrom(since).length < 20) await new Promise((r) => setTimeout(r, 20));

      const paused = value<ClusterView>(await host.handle('clusters.control', { id: attached.id, control: { paused: true } }));
      assert.equal(paused.status?.paused, true);
      // Acknowledged: the batches in flight have committed and no worker holds a site.
      const idle = await events.next(
        clusterEvent(attached.id, (v) => v.status?.paused === true && (v.status.counts.leased ?? 0) === 0 && v.status.workers.every((w) => w.sites.length === 0)),
        60_000,
      );
      const idleAt = Date.now();
      const pending = idle.type === 'cluster' ? idle.cluster.status!.pending : 0;
      assert.ok(pending > 0, 'paused before the end');
      await new Promise((r) => setTimeout(r, 3_000));
      assert.deepEqual(
        servedFrom(idleAt).map((s) => `${s.site}${s.path}`),
        [],
        'nothing fetched while paused',
      );
      const still = value<ClusterView[]>(await host.handle('clusters.list', {}))[0]!;
      assert.equal(still.status?.pending, pending, 'the frontier did not move while paused');
      assert.deepEqual(
        still.status?.workers.map((w) => [w.id, w.state]),
        WORKERS.map((w) => [w, 'live']),
        'workers wait, live, while paused',
      );

      const resumedAt = Date.now();
      const resumed = value<ClusterView>(await host.handle('clusters.control', { id: attached.id, control: { paused: false } }));
      assert.equal(resumed.status?.paused, false);
      for (const w of workers) assert.equal(await w.exit, 0, w.log());
      assert.ok(servedFrom(resumedAt).length > 0, 'fetching went on after resume');
      await events.next(clusterEvent(attached.id, (v) => v.status?.pending === 0 && v.status.workers.every((w) => w.state === 'stopped')), 30_000);
      assert.match(workers[0]!.log() + workers[1]!.log(), /paused/);
    } finally {
      site.slowFor.clear();
      for (const w of workers) w.child.kill();
    }

    // The same flag from the command line, as the attached app sees it.
    const cliPause = await runHarvest(['control', '--db', db, '--pause']);
    assert.equal(cliPause.status, 0, cliPause.stderr);
    assert.match(cliPause.stdout, /is paused/);
    await events.next(clusterEvent(attached.id, (v) => v.status?.paused === true), 10_000);
    const cliResume = await runHarvest(['control', '--db', db, '--resume']);
    assert.match(cliResume.stdout, /now runs/);
    await events.next(clusterEvent(attached.id, (v) => v.status?.paused === false), 10_000);

    const detached = await host.handle('clusters.detach', { id: attached.id });
    assert.ok(detached.ok);
    assert.deepEqual(value(await host.handle('clusters.list', {})), []);
    assert.ok(!JSON.stringify(events.events).includes(PASSWORD), 'no event carries the password');
  });
});
