import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { workerForSite } from '../../electron/engine/politeness/shards.js';
import { readCrawlRender } from '../../electron/engine/render/crawlRender.js';
import type { ClusterStatus } from '../../shared/cluster.js';
import { startWorker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';
import { decodePngSize } from '../helpers/pngCheck.js';
import { alive, descendantsOf } from '../helpers/processes.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';
import { extractZip } from '../helpers/zipReadBack.js';

const CHROMIUM = '/usr/bin/chromium';
const ADDRESSES = ['127.0.0.121', '127.0.0.122'];
const HTML = "(content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')";

/** What exists only through each site's scripts: links they write, data they fetch, images they load. */
const SCRIPT_ONLY = ['/js-only/alpha', '/js-only/beta', '/landing', '/listing/2', '/api/items.json', '/api/items.json?page=2', '/img/item-1.png'];

/** Two worker names the site hash gives one site each, so both workers render. */
function namesSplitting(sites: string[]): string[] {
  for (let n = 1; ; n += 2) {
    const names = [`r${n}`, `r${n + 1}`];
    if (new Set(sites.map((s) => workerForSite(s, names))).size === 2) return names;
  }
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

async function warcRecords(files: string[]): Promise<RawRecord[]> {
  return (await Promise.all(files.map((f) => readRaw(f)))).flat();
}

describe('cluster harvest with --render', { timeout: 600_000, skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let postgres: ThrowawayPostgres;
  let sites: JsSite[];
  let work: string;

  before(async () => {
    postgres = await startPostgres();
    sites = [await startJsSite(), await startJsSite()];
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-render-'));
  });

  after(async () => {
    for (const s of sites ?? []) await s.close();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('two workers rendering two script-built sites', () => {
    const db = () => postgres.url.replace(/\/harvest$/, '/rendered');
    const store = () => path.join(work, 'store');
    let status: ClusterStatus;
    let pages: { url: string; local_path: string }[];

    before(async () => {
      await query(postgres.url, 'CREATE DATABASE rendered');
      const seeds = sites.map((s) => `${s.origin}/`);
      const init = await runHarvest(['cluster', 'init', '--db', db(), '--name', 'rendered', '--delay-ms', '0', '--render', '--render-pages', '2', '--page-timeout', '20', '--screenshots', ...seeds]);
      assert.equal(init.status, 0, init.stderr);
      const started = Date.now();
      const workers = namesSplitting(sites.map((s) => s.origin)).map((id, i) => startWorker(db(), store(), id, ADDRESSES[i]!, ['--browser-path', CHROMIUM]));
      for (const w of workers) assert.equal(await w.exit, 0, w.log());
      status = JSON.parse((await runHarvest(['cluster', 'status', '--db', db(), '--json'])).stdout) as ClusterStatus;
      pages = await query(db(), `SELECT url, local_path FROM urls WHERE state = 'archived' AND ${HTML} ORDER BY url`);
      const requests = sites.flatMap((s) => s.requests.map((r) => `${s.origin} ${r}`));
      const seen = new Set<string>();
      const again = requests.filter((r) => seen.size === seen.add(r).size);
      const leases = await query<{ taken: number; mean_fetch_ms: number | null }>(db(), 'SELECT taken, mean_fetch_ms FROM leases ORDER BY id');
      const shared = await query<{ n: string }>(db(), `SELECT count(*) AS n FROM (SELECT site FROM urls WHERE fetched_by IS NOT NULL GROUP BY site HAVING count(DISTINCT fetched_by) > 1) s`);
      process.stderr.write(
        `# 2 workers, 2 sites: finished in ${((Date.now() - started) / 1000).toFixed(1)} s; ${pages.length} HTML pages archived; ` +
          `${requests.length} requests at the sites, ${again.length} for a URL asked before (${again.map((r) => r.replace(/^http:\/\/[^ ]+ GET /, '')).join(' ')}); per worker fetched ${status.workers.map((w) => w.fetched).join(', ')}; sites served by both workers: ${shared[0]!.n}; batches ${leases.map((l) => `${l.taken}@${Math.round(l.mean_fetch_ms ?? 0)}ms`).join(' ')}\n`,
      );
    });

    it('both workers render, and what only scripts reach is archived on every site', async () => {
      assert.equal(status.pending, 0, JSON.stringify(status.counts));
      assert.ok(status.workers.every((w) => w.fetched > 0), JSON.stringify(status.workers));
      const archived = new Set((await query<{ url: string }>(db(), `SELECT url FROM urls WHERE state = 'archived'`)).map((r) => r.url));
      for (const s of sites) for (const p of SCRIPT_ONLY) assert.ok(archived.has(`${s.origin}${p}`), `${s.origin}${p} not archived`);
      const tracker = await query<{ state: string; skip_reason: string }>(db(), 'SELECT state, skip_reason FROM urls WHERE url = $1', [`${sites[0]!.outsideOrigin}/tracker.json`]);
      assert.deepEqual(tracker, [{ state: 'skipped', skip_reason: 'scope' }]);
      for (const s of sites) assert.deepEqual(s.outsideRequests, [], 'the browser never reaches the other origin');
    });

    it('puts a 320x200 thumbnail (and a screenshot) of every page under the store', () => {
      assert.equal(pages.length, 2 * 8);
      for (const p of pages) {
        const thumbnail = path.join(store(), 'thumbnails', `${p.local_path}.png`);
        assert.ok(existsSync(thumbnail), `${p.url} has no thumbnail`);
        assert.deepEqual(decodePngSize(readFileSync(thumbnail)), { width: 320, height: 200 });
        assert.ok(existsSync(path.join(store(), 'thumbnails', `${p.local_path}.full.png`)), `${p.url} has no screenshot`);
      }
    });

    it('exports a WACZ with each page as fetched and its render\'s records, which an import makes the analysis\'s reference', async () => {
      const wacz = path.join(work, 'rendered.wacz');
      const exported = await runHarvest(['cluster', 'export', '--db', db(), '--store', store(), '--format', 'wacz', '--out', wacz, '--quiet']);
      assert.equal(exported.status, 0, exported.stderr);
      const unpacked = path.join(work, 'wacz');
      const entries = await extractZip(wacz, unpacked);
      const raw = await warcRecords(entries.filter((e) => e.name.startsWith('archive/')).map((e) => path.join(unpacked, e.name)));
      const uris = (type: string) => new Set(raw.filter((r) => r.type === type).map((r) => r.header('WARC-Target-URI')));
      const resources = uris('resource');
      for (const p of pages) {
        assert.ok(resources.has(`urn:thumbnail:${p.url}`), `no thumbnail record for ${p.url}`);
        assert.ok(resources.has(`urn:screenshot:${p.url}`), `no screenshot record for ${p.url}`);
        assert.ok(resources.has(`urn:textFinal:${p.url}`) && resources.has(`urn:pageinfo:${p.url}`), `no text or requests record for ${p.url}`);
      }
      const archive = path.join(work, 'imported');
      const imported = await runHarvest(['import', wacz, '--out', archive, '--quiet']);
      assert.equal(imported.status, 0, imported.stderr);
      for (const p of pages) assert.ok(readCrawlRender(archive, p.local_path, 1) !== null, `${p.url} has no crawl render after the import`);
      const listingRender = readCrawlRender(archive, pages.find((p) => p.url === `${sites[0]!.origin}/listing`)!.local_path, 1)!;
      assert.ok(
        listingRender.record.requests.some((r) => r.url === `${sites[0]!.origin}/api/items.json` && r.ok),
        'the listing\'s render kept the request its script made',
      );
      const responses = uris('response');
      for (const s of sites) for (const p of SCRIPT_ONLY) assert.ok(responses.has(`${s.origin}${p}`), `no response record for ${s.origin}${p}`);
      const listing = raw.find((r) => r.type === 'response' && r.header('WARC-Target-URI') === `${sites[0]!.origin}/listing`)!;
      assert.match(listing.block.toString('utf8'), /<ul id="items"><\/ul>/, 'the WARC keeps the page as fetched');
    });

    it('exports a mirror whose pages show the script-built content, after the finishing pass', async () => {
      const zip = path.join(work, 'rendered.zip');
      const exported = await runHarvest(['cluster', 'export', '--db', db(), '--store', store(), '--format', 'zip', '--out', zip, '--quiet']);
      assert.equal(exported.status, 0, exported.stderr);
      const unpacked = path.join(work, 'zip');
      await extractZip(zip, unpacked);
      // The zip's one folder is named after it.
      const mirror = path.join(unpacked, 'rendered');
      for (const s of sites) {
        const listing = pages.find((p) => p.url === `${s.origin}/listing`)!;
        const html = readFileSync(path.join(mirror, listing.local_path), 'utf8');
        for (const item of ['Item Alpha', 'Item Beta', 'Item Gamma', 'More items on page 2']) assert.ok(html.includes(item), `${item} missing from ${listing.local_path}`);
        assert.doesNotMatch(html, /<script/i);
        const alpha = pages.find((p) => p.url === `${s.origin}/js-only/alpha`)!;
        assert.match(readFileSync(path.join(mirror, alpha.local_path), 'utf8'), /Alpha text written by script/);
      }
    });
  });

  it('a rendering worker killed with SIGKILL leaves no browser behind, and another worker finishes its pages', async () => {
    await query(postgres.url, 'CREATE DATABASE killed');
    const db = postgres.url.replace(/\/harvest$/, '/killed');
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', 'killed', '--delay-ms', '0', '--lease-timeout', '2', '--render', '--render-pages', '1', `${sites[0]!.origin}/`]);
    assert.equal(init.status, 0, init.stderr);
    const store = path.join(work, 'store-killed');
    const first = startWorker(db, store, 'k1', ADDRESSES[0]!, ['--browser-path', CHROMIUM]);
    // Killed once a page is rendered, with more to come.
    const deadline = Date.now() + 120_000;
    while (countFiles(path.join(store, 'thumbnails')) < 1 && Date.now() < deadline) await sleep(50);
    const browser = descendantsOf(first.child.pid!);
    assert.ok(browser.length > 0, 'the browser runs under the worker');
    first.child.kill('SIGKILL');
    await first.exit;
    let left = alive(browser);
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await sleep(100);
      left = alive(browser);
    }
    assert.deepEqual(left, [], 'the browser exits with the worker');
    const second = startWorker(db, store, 'k2', ADDRESSES[1]!, ['--browser-path', CHROMIUM]);
    assert.equal(await second.exit, 0, second.log());
    const rows = await query<{ url: string; local_path: string }>(db, `SELECT url, local_path FROM urls WHERE state = 'archived' AND ${HTML}`);
    assert.equal(rows.length, 8);
    const by = await query<{ fetched_by: string; n: string }>(db, `SELECT fetched_by, count(*) AS n FROM urls WHERE state = 'archived' AND ${HTML} GROUP BY fetched_by ORDER BY fetched_by`);
    process.stderr.write(`# killed k1 rendering, its browser's ${browser.length} processes gone; HTML pages archived by ${by.map((b) => `${b.fetched_by} ${b.n}`).join(', ')}\n`);
    assert.ok(by.some((b) => b.fetched_by === 'k2'), 'the second worker rendered what the first left');
    for (const r of rows) assert.ok(existsSync(path.join(store, 'thumbnails', `${r.local_path}.png`)), `${r.url} has no thumbnail`);
  });

  it('a worker that finds no browser stops before joining, naming the path it tried', async () => {
    await query(postgres.url, 'CREATE DATABASE nobrowser');
    const db = postgres.url.replace(/\/harvest$/, '/nobrowser');
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', 'nobrowser', '--render', `${sites[0]!.origin}/`]);
    assert.equal(init.status, 0, init.stderr);
    const missing = path.join(work, 'no-such-browser');
    const w = startWorker(db, path.join(work, 'store-nobrowser'), 'nb1', ADDRESSES[0]!, ['--browser-path', missing]);
    assert.equal(await w.exit, 2, w.log());
    assert.match(w.log(), new RegExp(`tried: ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(w.log(), /--browser-path or HARVEST_CHROMIUM/);
    const joined = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM workers');
    assert.equal(Number(joined[0]!.n), 0, 'it never registered');
  });
});
