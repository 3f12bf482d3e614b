import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENTRY_PAGE } from '../../electron/engine/crawl/entryPage.js';
import { ABOUT_FILE } from '../../electron/engine/export/mirrorZip.js';
import { workerForSite } from '../../electron/engine/politeness/shards.js';
import type { UrlRecord } from '../../shared/crawl.js';
import type { ClusterStatus } from '../../shared/cluster.js';
import { exitWithin, killRunning, pendingWork, startWorker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startMultiSite, type MultiSite } from '../helpers/multiSite.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';
import { CHROMIUM, launchChromium, replayFrame, startViewerServer } from '../helpers/replayViewer.js';
import { extractZip } from '../helpers/zipReadBack.js';

/** Six sites of 60 pages on their own loopback addresses, each answer 50 ms late. */
const SITES = 6;
const PAGES = 60;

/** Every file of a mirror but its entry page (each harvest's own), by path, with its sha256. */
function mirrorFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = path.relative(root, path.join(e.parentPath, e.name));
    if (rel !== ENTRY_PAGE && rel !== ABOUT_FILE) out.set(rel, createHash('sha256').update(readFileSync(path.join(root, rel))).digest('hex'));
  }
  return out;
}

const sorted = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Worker names that the site hash gives at least two of the sites each, so a test about what every
 * worker does is not at the mercy of the ports the sites happened to get (with six sites and three
 * workers, one worker is given none in about one run in eleven).
 */
function namesOwningSites(prefix: string, count: number, sites: string[]): string[] {
  for (let base = 0; ; base += count) {
    const names = Array.from({ length: count }, (_, i) => `${prefix}${base + i + 1}`);
    const owned = new Map(names.map((n) => [n, 0]));
    for (const s of sites) {
      const owner = workerForSite(s, names);
      owned.set(owner, owned.get(owner)! + 1);
    }
    if ([...owned.values()].every((n) => n >= 2)) return names;
  }
}

describe('cluster harvest on PostgreSQL', { timeout: 600_000 }, () => {
  let postgres: ThrowawayPostgres;
  let site: MultiSite;
  let work: string;
  let dbSerial = 0;
  /** What one machine's `harvest crawl` made of the same sites: state per URL. */
  let single: Map<string, string>;

  const seeds = () => site.origins.map((o) => `${o}/`);

  /** A fresh database holding a new harvest of the sites. */
  async function newHarvest(extra: string[] = []): Promise<{ db: string; store: string }> {
    const name = `h${++dbSerial}`;
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--delay-ms', '0', '--lease-timeout', '2', ...extra, ...seeds()]);
    assert.equal(init.status, 0, init.stderr);
    return { db, store: path.join(work, `store-${name}`) };
  }

  async function clusterStates(db: string): Promise<Map<string, string>> {
    return new Map((await query<{ url: string; state: string }>(db, 'SELECT url, state FROM urls')).map((r) => [r.url, r.state]));
  }

  before(async () => {
    postgres = await startPostgres();
    site = await startMultiSite({ sites: SITES, pages: PAGES, latencyMs: 50 });
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-'));
    const out = path.join(work, 'single');
    const crawl = await runHarvest(['crawl', ...seeds(), '--out', out, '--delay-ms', '0', '--quiet'], { timeoutMs: 240_000 });
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
    await site?.stop();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('three workers harvest what one machine does, never serving a site together, into one WACZ that verifies', async () => {
    const { db, store } = await newHarvest();
    const since = Date.now();
    const workers = ['w1', 'w2', 'w3'].map((id, i) => startWorker(db, store, id, `127.0.0.${21 + i}`));
    for (const w of workers) assert.equal(await w.exit, 0, w.log());

    assert.deepEqual(sorted(await clusterStates(db)), sorted(single));
    assert.ok(single.size > SITES * PAGES, `the sites have ${single.size} URLs`);
    assert.deepEqual(site.sharedSites(since), [], 'no site answered two workers at once');
    // The work was spread, each worker from its own address (one that starts late may find every site taken).
    const from = new Set(site.served.filter((s) => s.startMs >= since).map((s) => s.from));
    assert.ok(from.size >= 2, `served to ${[...from].join(', ')}`);
    for (const a of from) assert.ok(['127.0.0.21', '127.0.0.22', '127.0.0.23'].includes(a), a);
    // Nothing was fetched twice.
    const twice = [...site.requestsPerUrl(since)].filter(([, n]) => n > 1);
    assert.deepEqual(twice, []);

    const wacz = path.join(work, 'three.wacz');
    const exported = await runHarvest(['cluster', 'export', '--db', db, '--store', store, '--format', 'wacz', '--out', wacz]);
    assert.equal(exported.status, 0, exported.stderr);
    const verify = await runHarvest(['verify', wacz, '--deep']);
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    // Its pages.jsonl lists every HTML page the harvest archived, as a single machine's export does.
    const unpacked = path.join(work, 'three');
    await extractZip(wacz, unpacked);
    const listed = readFileSync(path.join(unpacked, 'pages', 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).slice(1);
    const [html] = await query<{ n: string }>(
      db,
      "SELECT count(*) AS n FROM urls WHERE state = 'archived' AND http_status BETWEEN 200 AND 299 AND content_type LIKE 'text/html%'",
    );
    assert.equal(listed.length, Number(html!.n));
    assert.ok(listed.some((l) => (JSON.parse(l) as { url: string }).url === `${site.origins[0]}/p/1.html`));
    // ReplayWeb.page replays a page of the first site from it, with the page's own stylesheet.
    if (existsSync(CHROMIUM)) {
      const pageUrl = `${site.origins[0]}/p/1.html`;
      const viewer = await startViewerServer(wacz, pageUrl);
      const browser = await launchChromium();
      try {
        const frame = await replayFrame(browser, viewer.origin, pageUrl);
        assert.equal(await frame.title(), 'Site 0 page 1');
        assert.equal((await frame.textContent('h1'))?.trim(), 'Site 0, page 1');
        await frame.waitForFunction('getComputedStyle(document.body).backgroundImage.includes("/img/0.png")', undefined, { timeout: 30_000 });
      } finally {
        await browser.close();
        viewer.server.close();
      }
    }

    // The offline copy: after the finishing pass, the same files as one machine's, byte for byte,
    // and exported as a ZIP (the entry page is each harvest's own).
    const zip = path.join(work, 'three.zip');
    const zipped = await runHarvest(['cluster', 'export', '--db', db, '--store', store, '--format', 'zip', '--out', zip]);
    assert.equal(zipped.status, 0, zipped.stderr);
    assert.match(zipped.stderr, /finishing pass: \d+ documents? of the mirror rewritten/);
    const clusterFiles = mirrorFiles(path.join(store, 'mirror'));
    const singleFiles = mirrorFiles(path.join(work, 'single', 'mirror'));
    assert.deepEqual([...clusterFiles.keys()].sort(), [...singleFiles.keys()].sort());
    const differing = [...singleFiles].filter(([f, digest]) => clusterFiles.get(f) !== digest).map(([f]) => f);
    assert.deepEqual(differing, [], 'files that differ from the single machine\'s');
    const unzipped = path.join(work, 'three-zip');
    await extractZip(zip, unzipped);
    const inZip = mirrorFiles(path.join(unzipped, 'three'));
    for (const [f, digest] of clusterFiles) assert.equal(inZip.get(f), digest, f);
    const bag = path.join(work, 'three-bag');
    const bagged = await runHarvest(['cluster', 'export', '--db', db, '--store', store, '--format', 'bagit', '--include-mirror', '--out', bag]);
    assert.equal(bagged.status, 0, bagged.stderr);
    const bagVerify = await runHarvest(['verify', bag, '--deep']);
    assert.equal(bagVerify.status, 0, bagVerify.stdout + bagVerify.stderr);

    const status = await runHarvest(['cluster', 'status', '--db', db, '--json']);
    const s = JSON.parse(status.stdout) as ClusterStatus;
    assert.equal(s.pending, 0);
    assert.equal(s.finished, true, 'the status says the harvest has finished');
    assert.deepEqual(
      s.workers.map((w) => [w.id, w.state]),
      [
        ['w1', 'stopped'],
        ['w2', 'stopped'],
        ['w3', 'stopped'],
      ],
    );
    assert.equal(
      s.workers.reduce((n, w) => n + w.fetched, 0),
      [...single.values()].filter((st) => st !== 'skipped').length,
    );
  });

  it('a worker killed with SIGKILL: its sites move, nothing is lost, only its in-flight URLs are fetched again', async () => {
    const { db, store } = await newHarvest();
    const since = Date.now();
    const workers = ['k1', 'k2', 'k3'].map((id, i) => startWorker(db, store, id, `127.0.0.${24 + i}`, ['--lease-seconds', '0.5']));
    let victim = -1;
    let killed = '';
    let held: string[] = [];
    let inFlight = '0';
    let killedAt = 0;
    const killedAddress = () => `127.0.0.${24 + victim}`;
    /** The first request for `s` after the kill from a live worker. */
    const movedTo = (s: string) => site.served.find((r) => r.site === s && r.startMs > killedAt && r.from !== killedAddress());
    try {
      // The first worker seen to have committed a batch while holding another is killed (a worker
      // that starts late may find every site taken, so which one is not fixed).
      const deadline = Date.now() + 60_000;
      while (victim < 0) {
        assert.ok(Date.now() < deadline, 'no worker committed a batch while holding another within 60 s');
        for (const [i, w] of workers.entries()) {
          const done = await query<{ n: string }>(db, `SELECT count(*) AS n FROM leases WHERE worker = $1 AND done_at IS NOT NULL`, [w.id]);
          const open = await query<{ taken: number }>(db, `SELECT taken FROM leases WHERE worker = $1 AND done_at IS NULL`, [w.id]);
          if (Number(done[0]!.n) > 0 && open.length > 0) {
            victim = i;
            break;
          }
        }
        if (victim < 0) await new Promise((r) => setTimeout(r, 20));
      }
      workers[victim]!.child.kill('SIGKILL');
      killedAt = Date.now();
      killed = workers[victim]!.id;
      held = (await query<{ site: string }>(db, `SELECT site FROM leases WHERE worker = $1 AND done_at IS NULL`, [killed])).map((r) => r.site);
      inFlight = (await query<{ n: string }>(db, `SELECT coalesce(sum(taken), 0) AS n FROM leases WHERE worker = $1 AND done_at IS NULL`, [killed]))[0]!.n;
      assert.equal(await exitWithin(workers[victim]!, 10_000), null);
      // Its sites move once its heartbeat is 2 s old (about 2 s after the kill here): 20 s is ten times that.
      while (held.some((s) => !movedTo(s)) && Date.now() < killedAt + 20_000) await sleep(50);
      const stuck = held.filter((s) => !movedTo(s));
      if (stuck.length > 0) {
        const rows = await query<{ site: string; holder: string | null }>(db, 'SELECT site, holder FROM sites WHERE site = ANY($1) ORDER BY site', [stuck]);
        assert.fail(`sites of ${killed} that no live worker served within 20 s of the kill: ${rows.map((r) => `${r.site} (held by ${r.holder ?? 'no one'})`).join(', ')}`);
      }
      for (const w of workers.filter((_, i) => i !== victim)) assert.equal(await exitWithin(w, 90_000, () => pendingWork(db)), 0, w.log());
    } finally {
      killRunning(workers);
    }
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single), 'nothing lost');
    const reclaimed = await query<{ returned: number }>(db, `SELECT returned FROM leases WHERE worker = $1 AND outcome = 'reclaimed'`, [killed]);
    assert.equal(
      reclaimed.reduce((n, r) => n + r.returned, 0),
      Number(inFlight),
    );
    const twice = [...site.requestsPerUrl(since)].filter(([, n]) => n > 1);
    assert.ok(twice.length <= Number(inFlight), `${twice.length} URLs fetched again, ${inFlight} in flight at the kill`);
    assert.deepEqual(site.sharedSites(since), []);
    // Each site it held was served by a live worker after the kill (see above): how soon.
    const moved = held.map((s) => movedTo(s)!.startMs - killedAt);
    process.stderr.write(`# killed ${killed} with ${inFlight} URLs in flight; ${twice.length} fetched again; its sites moved after ${moved.join(', ')} ms\n`);

    // The file it left open is cut back at its last whole record when the bundle is made.
    const wacz = path.join(work, 'killed.wacz');
    const exported = await runHarvest(['cluster', 'export', '--db', db, '--store', store, '--format', 'wacz', '--out', wacz]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stderr, /finished 1 WARC file left open/);
    const verify = await runHarvest(['verify', wacz, '--deep']);
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  });

  it('live control: connections raised from 2 to 6 show at the server; --workers 1 leaves one worker leasing', async () => {
    const { db, store } = await newHarvest(['--connections', '2']);
    const names = namesOwningSites('c', 2, site.origins);
    const addresses = ['127.0.0.41', '127.0.0.42'];
    // Slow answers, so the harvest lasts long enough to be changed while it runs.
    for (const a of addresses) site.slowFor.set(a, 300);
    const since = Date.now();
    const servedSince = (t: number) => site.served.filter((s) => s.startMs >= t).length;
    const waitFor = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!ok()) {
        assert.ok(Date.now() < deadline, `${what} within 60 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    /** `harvest control` on the harvest, which must answer within 60 s. */
    const control = async (...args: string[]) => {
      const r = await runHarvest(['control', '--db', db, ...args], { timeoutMs: 60_000 });
      assert.equal(r.status, 0, `harvest control ${args.join(' ')}: ${r.timedOut ? 'no answer within 60 s' : r.stderr}`);
      return r.stdout;
    };
    let raising = 0;
    let raisedAt = 0;
    let narrowedAt = 0;
    const workers = names.map((id, i) => startWorker(db, store, id, addresses[i]!, ['--lease-seconds', '1']));
    try {
      await waitFor('40 requests', () => servedSince(since) >= 40);
      // Workers may take the raise before the command has exited: "before" ends when it was asked.
      raising = Date.now();
      assert.match(await control('--connections', '6'), /6 connections per host/);
      raisedAt = Date.now();
      // The raise is read within a second; what the server sees after that second is measured below,
      // so some requests must start in it (on a quiet machine 60 requests take well under a second).
      await waitFor('30 requests a second after the raise', () => servedSince(raisedAt + 1_000) >= 30);
      await control('--workers', '1');
      narrowedAt = Date.now();
      const answer = await runHarvest(['cluster', 'status', '--db', db, '--json'], { timeoutMs: 60_000 });
      assert.equal(answer.status, 0, `harvest cluster status: ${answer.timedOut ? 'no answer within 60 s' : answer.stderr}`);
      const status = JSON.parse(answer.stdout) as ClusterStatus;
      assert.equal(status.activeWorkers, 1);
      assert.deepEqual(
        status.workers.filter((w) => w.state === 'live').map((w) => [w.id, w.standby]),
        names.map((n, i) => [n, i > 0]),
      );
      // One worker at 300 ms an answer ends the harvest in about 4 s: 60 s is fifteen times that.
      for (const w of workers) assert.equal(await exitWithin(w, 60_000, () => pendingWork(db)), 0, w.log());
      process.stderr.write(`# the harvest ended ${Date.now() - narrowedAt} ms after --workers 1\n`);
    } finally {
      killRunning(workers);
      site.slowFor.clear();
    }
    const before = site.peakConcurrency(since, raising);
    const after = site.peakConcurrency(raisedAt + 1_000, narrowedAt);
    process.stderr.write(`# connections per site at the server: ${before} before the raise, ${after} after\n`);
    assert.ok(before <= 2, `${before} at once before the raise`);
    assert.ok(after > 2 && after <= 6, `${after} at once after the raise to 6`);
    // The worker on standby took no lease once it had read the change (a round of leasing may have been under way).
    const late = await query<{ n: string }>(db, `SELECT count(*) AS n FROM leases WHERE worker = $1 AND taken_at > to_timestamp($2 / 1000.0)`, [names[1], narrowedAt + 1_000]);
    assert.equal(Number(late[0]!.n), 0);
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single), 'nothing lost');
  });

  it('a site its own worker leaves waiting is served by a worker with room', async () => {
    const { db, store } = await newHarvest();
    const [busy, roomy] = namesOwningSites('r', 2, site.origins);
    const addresses = ['127.0.0.51', '127.0.0.52'];
    const since = Date.now();
    // The busy worker serves one site at a time, so the other sites the hash gives it wait.
    const workers = [startWorker(db, store, busy!, addresses[0]!, ['--sites', '1']), startWorker(db, store, roomy!, addresses[1]!)];
    for (const w of workers) assert.equal(await w.exit, 0, w.log());
    const busySites = site.origins.filter((o) => workerForSite(o, [busy!, roomy!]) === busy);
    const servedToRoomy = new Set(site.served.filter((s) => s.startMs >= since && s.from === addresses[1] && busySites.includes(s.site)).map((s) => s.site));
    assert.ok(servedToRoomy.size > 0, `the worker with room served none of ${busySites.join(', ')}`);
    assert.deepEqual(site.sharedSites(since), [], 'never two workers on one site at once');
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single), 'nothing lost');
  });

  it('a worker that joins late gets its own sites back from the worker that took them, at the end of a batch', async () => {
    const { db, store } = await newHarvest();
    const [first, late] = namesOwningSites('j', 2, site.origins);
    const addresses = ['127.0.0.56', '127.0.0.57'];
    const since = Date.now();
    // Alone, the first worker owns every site and serves all six at once, each through to its end.
    const early = startWorker(db, store, first!, addresses[0]!, ['--sites', '6', '--lease-seconds', '0.5']);
    while (site.served.filter((s) => s.startMs >= since && s.path !== '/robots.txt').length < 30) await sleep(50);
    const joinedAt = Date.now();
    const joined = startWorker(db, store, late!, addresses[1]!, ['--sites', '6', '--lease-seconds', '0.5']);
    for (const w of [early, joined]) assert.equal(await w.exit, 0, w.log());
    const lateSites = site.origins.filter((o) => workerForSite(o, [first!, late!]) === late);
    const servedLate = new Set(site.served.filter((s) => s.startMs >= joinedAt && s.from === addresses[1] && lateSites.includes(s.site)).map((s) => s.site));
    process.stderr.write(`# the late worker served ${servedLate.size} of its ${lateSites.length} sites\n`);
    assert.deepEqual([...servedLate].sort(), [...lateSites].sort(), 'every site of the late worker was handed back to it');
    assert.deepEqual(site.sharedSites(since), [], 'never two workers on one site at once');
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single), 'nothing lost');
  });

  it('a robots.txt that answers 503 is asked again, as a local crawl does, and its site is harvested', async () => {
    const { db, store } = await newHarvest();
    const since = Date.now();
    const flaky = site.origins[0]!;
    site.robotsFailures.set(flaky, 1);
    const workers = namesOwningSites('b', 2, site.origins).map((id, i) => startWorker(db, store, id, `127.0.0.${61 + i}`));
    for (const w of workers) assert.equal(await w.exit, 0, w.log());
    const asked = site.served.filter((s) => s.site === flaky && s.path === '/robots.txt' && s.startMs >= since);
    assert.equal(asked.length, 2, 'robots.txt asked twice: the 503, then the answer');
    assert.ok(asked[1]!.startMs - asked[0]!.endMs >= 4_900, `asked again ${asked[1]!.startMs - asked[0]!.endMs} ms after the 503`);
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single), 'the site harvested as one machine does');
  });

  it('a slow worker ends with smaller batches than the fast ones', async () => {
    const { db, store } = await newHarvest();
    const names = namesOwningSites('s', 3, site.origins);
    site.slowFor.set('127.0.0.33', 200);
    try {
      const workers = names.map((id, i) => startWorker(db, store, id, `127.0.0.${31 + i}`, ['--lease-seconds', '1']));
      for (const w of workers) assert.equal(await w.exit, 0, w.log());
    } finally {
      site.slowFor.clear();
    }
    // Each worker's batch sizes after its first (which has no fetch times to go by).
    const sizes = new Map<string, number[]>();
    for (const l of await query<{ worker: string; batch_size: number }>(db, 'SELECT worker, batch_size FROM leases WHERE mean_fetch_ms IS NOT NULL ORDER BY id')) {
      sizes.set(l.worker, [...(sizes.get(l.worker) ?? []), l.batch_size]);
    }
    process.stderr.write(`# batch sizes per worker: ${JSON.stringify(Object.fromEntries(sizes))}\n`);
    const slow = median(sizes.get(names[2]!) ?? []);
    const fast = names.slice(0, 2).map((w) => median(sizes.get(w) ?? []));
    process.stderr.write(`# median batch sizes: slow ${slow}, fast ${fast.join(', ')}\n`);
    for (const f of fast) assert.ok(slow * 2 < f, `slow worker's batches (${slow}) are well below a fast one's (${f})`);
    assert.deepEqual(sorted(await clusterStates(db)), sorted(single));
  });
});
