import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { workerForSite } from '../../electron/engine/politeness/shards.js';
import type { ClusterStatus } from '../../shared/cluster.js';
import { startWorker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startMultiSite, type MultiSite } from '../helpers/multiSite.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

/** Two sites of 60 pages, each answer 50 ms late; two workers, each from its own address. */
const SITES = 2;
const PAGES = 60;
const ADDRESSES = ['127.0.0.111', '127.0.0.112'];
const HTML = "(content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')";

/** Two worker names the site hash gives one site each, so both work towards the one limit. */
function namesSplitting(prefix: string, sites: string[]): string[] {
  for (let n = 1; ; n += 2) {
    const names = [`${prefix}w${n}`, `${prefix}w${n + 1}`];
    if (new Set(sites.map((s) => workerForSite(s, names))).size === 2) return names;
  }
}

describe('cluster harvest limits', { timeout: 300_000 }, () => {
  let postgres: ThrowawayPostgres;
  let site: MultiSite;
  let work: string;
  let dbSerial = 0;

  /** A fresh database holding a new harvest of the sites, harvested by two workers to the end. */
  async function harvest(
    limits: string[],
    workerArgs: string[],
    seeds = site.origins.map((o) => `${o}/`),
  ): Promise<{ db: string; status: ClusterStatus; text: string; startedMs: number }> {
    const name = `l${++dbSerial}`;
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--delay-ms', '0', '--lease-timeout', '2', ...limits, ...seeds]);
    assert.equal(init.status, 0, init.stderr);
    const store = path.join(work, `store-${name}`);
    const startedMs = Date.now();
    const workers = namesSplitting(name, site.origins).map((id, i) => startWorker(db, store, id, ADDRESSES[i]!, workerArgs));
    for (const w of workers) assert.equal(await w.exit, 0, w.log());
    const status = JSON.parse((await runHarvest(['cluster', 'status', '--db', db, '--json'])).stdout) as ClusterStatus;
    const text = (await runHarvest(['cluster', 'status', '--db', db])).stdout;
    return { db, status, text, startedMs };
  }

  /** Nothing is left queued, leased or under an open lease: the harvest ended. */
  async function assertEnded(db: string, status: ClusterStatus): Promise<void> {
    assert.equal(status.pending, 0, JSON.stringify(status.counts));
    assert.equal(status.counts.leased, undefined);
    assert.equal(status.counts.queued, undefined);
    const open = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM leases WHERE done_at IS NULL');
    assert.equal(Number(open[0]!.n), 0);
    assert.deepEqual(
      status.workers.map((w) => w.state),
      ['stopped', 'stopped'],
    );
  }

  before(async () => {
    postgres = await startPostgres();
    site = await startMultiSite({ sites: SITES, pages: PAGES, latencyMs: 50, firstAddress: 100 });
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-limits-'));
  });

  after(async () => {
    await site?.stop();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('--max-pages stops leasing pages across both workers: at most the batches then leased overshoot', async () => {
    const max = 20;
    const { db, status, text } = await harvest(['--max-pages', String(max)], ['--lease-seconds', '0.2']);
    await assertEnded(db, status);
    assert.equal(status.limit, 'limit:pages');
    assert.match(text, /: finished, limit:pages reached;/);
    const pages = Number((await query<{ n: string }>(db, `SELECT count(*) AS n FROM urls WHERE state = 'archived' AND ${HTML}`))[0]!.n);
    // One site has one open lease at most (its holder's), so when the limit was reached at most one
    // batch per site was leased: the overshoot is bounded by the sites' largest batches.
    const largest = await query<{ taken: number }>(db, 'SELECT taken FROM leases ORDER BY taken DESC LIMIT $1', [SITES]);
    const bound = largest.reduce((n, l) => n + l.taken, 0);
    const skipped = Number((await query<{ n: string }>(db, `SELECT count(*) AS n FROM urls WHERE skip_reason = 'limit:pages'`))[0]!.n);
    process.stderr.write(`# --max-pages ${max}: ${pages} HTML pages archived (overshoot ${pages - max}, bound ${bound}), ${skipped} URLs skipped for limit:pages\n`);
    assert.ok(pages >= max, `${pages} pages archived, the limit is ${max}`);
    assert.ok(pages <= max + bound, `${pages} pages archived, more than ${max} + ${bound} (the batches leased at once)`);
    assert.ok(skipped > 0);
    // Both workers counted towards the one limit.
    assert.ok(status.workers.every((w) => w.fetched > 0), JSON.stringify(status.workers));
    // The page limit spares requisites, as in a local crawl: none was skipped for it.
    const requisites = await query<{ n: string }>(db, `SELECT count(*) AS n FROM urls WHERE skip_reason = 'limit:pages' AND requisite`);
    assert.equal(Number(requisites[0]!.n), 0);
  });

  it('--max-bytes ends the harvest once the workers together received that much: requisites are skipped too', async () => {
    // Less than a seed page: the limit is passed by the first batches (each site's seed alone), so
    // the seeds' stylesheet and image are always still queued then. With 6,000 bytes they had
    // sometimes all been fetched by the time the limit was seen, and the requisite check failed.
    const max = 200;
    const { db, status, text } = await harvest(['--max-bytes', String(max)], ['--lease-seconds', '0.2']);
    await assertEnded(db, status);
    assert.equal(status.limit, 'limit:bytes');
    assert.match(text, /: finished, limit:bytes reached;/);
    const t = (
      await query<{ received: string; largest: string; skipped: string; requisites: string }>(
        db,
        `SELECT (SELECT sum(bytes) FROM workers) AS received, (SELECT max(bytes) FROM urls) AS largest,
           (SELECT count(*) FROM urls WHERE skip_reason = 'limit:bytes') AS skipped,
           (SELECT count(*) FROM urls WHERE skip_reason = 'limit:bytes' AND requisite) AS requisites`,
      )
    )[0]!;
    const largest = await query<{ taken: number }>(db, 'SELECT taken FROM leases ORDER BY taken DESC LIMIT $1', [SITES]);
    const bound = largest.reduce((n, l) => n + l.taken, 0) * Number(t.largest);
    process.stderr.write(`# --max-bytes ${max}: ${t.received} bytes received (overshoot ${Number(t.received) - max}, bound ${bound}), ${t.skipped} skipped for limit:bytes\n`);
    assert.ok(Number(t.received) >= max);
    assert.ok(Number(t.received) <= max + bound, `${t.received} bytes received`);
    assert.ok(Number(t.skipped) > 0);
    assert.ok(Number(t.requisites) > 0, 'requisites are skipped for the byte limit');
  });

  it('--max-duration ends the harvest: no batch is leased once it has passed, what is queued is skipped for it', async () => {
    // Slow answers, so the whole harvest would take far longer than the limit.
    for (const a of ADDRESSES) site.slowFor.set(a, 400);
    const max = 2;
    let ended;
    try {
      ended = await harvest(['--max-duration', String(max)], ['--lease-seconds', '0.5']);
    } finally {
      site.slowFor.clear();
    }
    const { db, status, text } = ended;
    await assertEnded(db, status);
    assert.equal(status.limit, 'limit:duration');
    assert.match(text, /: finished, limit:duration reached;/);
    const t = (
      await query<{ late_lease_s: number | null; last_fetch_s: number; skipped: string; archived: string }>(
        db,
        `SELECT extract(epoch FROM (SELECT max(taken_at) FROM leases) - h.started_at)::float8 AS late_lease_s,
           extract(epoch FROM (SELECT max(fetched_at) FROM urls) - h.started_at)::float8 AS last_fetch_s,
           (SELECT count(*) FROM urls WHERE skip_reason = 'limit:duration') AS skipped,
           (SELECT count(*) FROM urls WHERE state = 'archived') AS archived
         FROM harvest h`,
      )
    )[0]!;
    process.stderr.write(
      `# --max-duration ${max}: last lease ${t.late_lease_s?.toFixed(2)} s and last request ${t.last_fetch_s.toFixed(2)} s after the start; ${t.archived} archived, ${t.skipped} skipped for limit:duration\n`,
    );
    assert.ok(t.late_lease_s !== null && t.late_lease_s < max, `a lease was taken ${t.late_lease_s} s after the start`);
    // The batches leased before the limit finish: at 400 ms an answer, half a second's batches.
    assert.ok(t.last_fetch_s < max + 3, `a request started ${t.last_fetch_s} s after the start`);
    assert.ok(Number(t.skipped) > 0);
    assert.ok(Number(t.archived) < SITES * PAGES);
  });

  it('--seeds-file: every URL of the list is queued as a seed, and the scope covers each of their sites', async () => {
    // The second site only in the list, by a page deep in it: the job's seeds must still cover it.
    const list = path.join(work, 'seeds.txt');
    writeFileSync(list, `# two sites\n${site.origins[0]}/\n\n${site.origins[1]}/p/5.html\n`);
    const { db, status } = await harvest(['--seeds-file', list], [], []);
    await assertEnded(db, status);
    const seeds = await query<{ url: string; depth: number }>(db, `SELECT url, depth FROM urls WHERE via = 'seed' ORDER BY url`);
    assert.deepEqual(seeds, [
      { url: `${site.origins[0]}/`, depth: 0 },
      { url: `${site.origins[1]}/p/5.html`, depth: 0 },
    ]);
    const perSite = await query<{ site: string; n: string }>(db, `SELECT site, count(*) AS n FROM urls WHERE state = 'archived' AND ${HTML} GROUP BY site ORDER BY site`);
    assert.deepEqual(
      perSite.map((r) => r.site),
      site.origins,
    );
    // Every page of both sites: the second is reached from its list URL (and from the first site's links).
    for (const r of perSite) assert.ok(Number(r.n) >= PAGES, `${r.site}: ${r.n} pages`);

    writeFileSync(list, `${site.origins[0]}/\nnot a url\n`);
    const bad = await runHarvest(['cluster', 'init', '--db', postgres.url, '--name', 'bad', '--seeds-file', list]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /seeds\.txt, line 2: /);
  });
});
