import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import type { UrlRecord } from '../../shared/crawl.js';
import { CLI } from '../helpers/benchSite.js';
import { listRecords, runHarvest, type HarvestRun } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';
import { decodePngSize } from '../helpers/pngCheck.js';
import { alive, descendantsOf } from '../helpers/processes.js';
import { readRaw } from '../helpers/warcReadBack.js';
import { extractZip } from '../helpers/zipReadBack.js';

const CHROMIUM = '/usr/bin/chromium';

/** What exists only through the site's scripts: links they write, data they fetch, images they load. */
const SCRIPT_ONLY = [
  '/js-only/alpha',
  '/js-only/beta',
  '/landing',
  '/listing/2',
  '/api/items.json',
  '/api/items.json?page=2',
  '/api/items.json?page=3',
  '/img/item-1.png',
  '/img/item-2.png',
  '/img/item-3.png',
];

/** The project builds without DOM types: what the offline checks read of the page. */
interface OfflineImage {
  complete: boolean;
  naturalWidth: number;
  getAttribute(name: string): string | null;
}
declare const document: { body: { innerText: string }; images: ArrayLike<OfflineImage> };

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

function archivedPaths(records: UrlRecord[]): Set<string> {
  return new Set(records.filter((r) => r.state === 'archived').map((r) => pathOf(r.url)));
}

describe('rendered capture (--render)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let site: JsSite;
  let tmp: string;

  before(async () => {
    site = await startJsSite();
    tmp = mkdtempSync(path.join(tmpdir(), 'harvest-render-'));
  });

  after(async () => {
    await site?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a static crawl misses what only scripts make', async () => {
    const out = path.join(tmp, 'static');
    const run = await runHarvest(['crawl', `${site.origin}/`, '--out', out, '--quiet']);
    assert.equal(run.status, 0, run.stderr);
    const archived = archivedPaths(listRecords(out));
    assert.ok(archived.has('/listing'), 'the static crawl works');
    for (const p of SCRIPT_ONLY) assert.ok(!archived.has(p), `${p} found without rendering`);
    assert.ok(!existsSync(path.join(out, 'thumbnails')), 'no thumbnails without --render');
  });

  describe('a --render crawl', () => {
    const out = () => path.join(tmp, 'rendered');
    let run: HarvestRun;
    let records: UrlRecord[];
    let requests: string[];

    before(async () => {
      site.requests.length = 0;
      run = await runHarvest(['crawl', `${site.origin}/`, '--out', out(), '--quiet', '--render', '--browser-path', CHROMIUM], { timeoutMs: 180_000 });
      requests = [...site.requests];
      records = listRecords(out());
    });

    it('archives the pages, data and images only scripts reach', () => {
      assert.equal(run.status, 0, run.stderr);
      const archived = archivedPaths(records);
      for (const p of [...SCRIPT_ONLY, '/img/lazy-io.png', '/img/lazy-native.png', '/static/listing.js']) {
        assert.ok(archived.has(p), `${p} not archived; archived: ${[...archived].join(' ')}`);
      }
      const json = records.find((r) => pathOf(r.url) === '/api/items.json')!;
      assert.match(readFileSync(path.join(out(), 'mirror', json.localPath!), 'utf8'), /Item Alpha/);
    });

    it('asks the server for each URL once and never reaches the other origin', () => {
      const seen = new Map<string, number>();
      for (const r of requests) seen.set(r, (seen.get(r) ?? 0) + 1);
      const twice = [...seen].filter(([, n]) => n > 1);
      assert.deepEqual(twice, [], `requested more than once: ${JSON.stringify(twice)}`);
      assert.ok(requests.every((r) => r.startsWith('GET ')));
      assert.deepEqual(site.outsideRequests, []);
      const tracker = records.find((r) => r.url === `${site.outsideOrigin}/tracker.json`);
      assert.equal(tracker?.state, 'skipped');
      assert.equal(tracker?.skipReason, 'scope');
    });

    it('saves copies that show the script-built content offline, with the network blocked', async () => {
      const mirror = path.join(out(), 'mirror');
      const listing = records.find((r) => pathOf(r.url) === '/listing')!;
      const saved = readFileSync(path.join(mirror, listing.localPath!), 'utf8');
      assert.doesNotMatch(saved, /<script/i, 'scripts that would render again are removed');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
      const blocked: string[] = [];
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith('file:')) return route.continue();
          blocked.push(url);
          return route.abort();
        });
        const page = await context.newPage();
        await page.goto(pathToFileURL(path.join(mirror, listing.localPath!)).href, { waitUntil: 'load' });
        const text = (await page.evaluate(() => document.body.innerText)) as string;
        // The loading=lazy image loads offline as it did online: once scrolled to.
        await page.locator('img[alt="native"]').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete), undefined, { timeout: 10_000 });
        for (const item of ['Item Alpha', 'Item Beta', 'Item Gamma', 'More items on page 2']) assert.ok(text.includes(item), `${item} missing offline`);
        const images = (await page.evaluate(() =>
          Array.from(document.images, (i) => ({ src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0 })),
        )) as { src: string; ok: boolean }[];
        assert.deepEqual(
          images.map((i) => i.src),
          ['img/item-1.png', 'img/item-2.png', 'img/item-3.png', 'img/lazy-io.png', 'img/lazy-native.png'],
        );
        for (const i of images) assert.ok(i.ok, `${i.src} does not show offline`);
        const page2 = records.find((r) => pathOf(r.url) === '/listing/2')!;
        await page.goto(pathToFileURL(path.join(mirror, page2.localPath!)).href, { waitUntil: 'load' });
        assert.match((await page.evaluate(() => document.body.innerText)) as string, /Item Delta/, 'the "load more" button was clicked');
        // The client-side redirect's copy redirects offline too.
        const go = records.find((r) => pathOf(r.url) === '/go')!;
        await page.goto(pathToFileURL(path.join(mirror, go.localPath!)).href);
        await page.waitForURL(/landing\.html$/, { timeout: 10_000 });
      } finally {
        await browser.close();
      }
      assert.deepEqual(blocked, [], 'the offline copy asked for nothing outside the mirror');
    });

    it('keeps the page as fetched in the WARC, with a thumbnail record per page', async () => {
      const warcDir = path.join(out(), 'warc');
      const raw = (await Promise.all(readdirSync(warcDir).map((f) => readRaw(path.join(warcDir, f))))).flat();
      const listingResponse = raw.find((r) => r.type === 'response' && r.header('WARC-Target-URI') === `${site.origin}/listing`);
      assert.ok(listingResponse, 'the listing response is recorded');
      assert.match(listingResponse.block.toString('utf8'), /<ul id="items"><\/ul>/, 'as fetched, before its script ran');
      const thumbnails = raw.filter((r) => r.type === 'resource' && r.header('WARC-Target-URI')!.startsWith('urn:thumbnail:'));
      const pages = records.filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? ''));
      assert.deepEqual(new Set(thumbnails.map((r) => r.header('WARC-Target-URI'))), new Set(pages.map((p) => `urn:thumbnail:${p.url}`)));
      for (const t of thumbnails) {
        assert.equal(t.header('Content-Type'), 'image/png');
        assert.deepEqual(decodePngSize(t.block), { width: 320, height: 200 });
      }
    });

    it('lists a thumbnail for every rendered page, a real 320x200 image', () => {
      const pages = records.filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? ''));
      assert.equal(pages.length, 8);
      for (const p of pages) {
        assert.ok(p.thumbnail, `${p.url} has no thumbnail`);
        assert.deepEqual(decodePngSize(readFileSync(path.join(out(), p.thumbnail))), { width: 320, height: 200 });
      }
      assert.ok(records.filter((r) => !/^text\/html/.test(r.contentType ?? '')).every((r) => r.thumbnail === undefined));
    });

    it('exports the thumbnail records in the WACZ', async () => {
      const wacz = path.join(tmp, 'rendered.wacz');
      const exported = await runHarvest(['export', out(), '--format', 'wacz', '--out', wacz, '--quiet']);
      assert.equal(exported.status, 0, exported.stderr);
      const unpacked = path.join(tmp, 'wacz');
      const entries = await extractZip(wacz, unpacked);
      const warcs = entries.filter((e) => e.name.startsWith('archive/'));
      const raw = (await Promise.all(warcs.map((e) => readRaw(path.join(unpacked, e.name))))).flat();
      assert.ok(raw.some((r) => r.type === 'resource' && r.header('WARC-Target-URI') === `urn:thumbnail:${site.origin}/listing`));
    });
  });

  it('resumes a --render crawl killed with SIGKILL, leaving no browser behind', async () => {
    const out = path.join(tmp, 'killed');
    const child = spawn(process.execPath, [CLI, 'crawl', `${site.origin}/`, '--out', out, '--quiet', '--render', '--render-pages', '1', '--browser-path', CHROMIUM], { stdio: 'ignore' });
    const closed = new Promise((resolve) => child.once('close', resolve));
    // Killed once a page or two are rendered, with more to come.
    const thumbnails = path.join(out, 'thumbnails');
    const deadline = Date.now() + 120_000;
    while (countFiles(thumbnails) < 2 && Date.now() < deadline) await sleep(50);
    const browser = descendantsOf(child.pid!);
    assert.ok(browser.length > 0, 'the browser runs under the crawl');
    child.kill('SIGKILL');
    await closed;
    let left = alive(browser);
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await sleep(100);
      left = alive(browser);
    }
    assert.deepEqual(left, [], 'the browser exits with the crawl');
    const resumed = await runHarvest(['resume', out, '--quiet'], { timeoutMs: 180_000 });
    assert.equal(resumed.status, 0, resumed.stderr);
    const records = listRecords(out);
    const archived = archivedPaths(records);
    for (const p of SCRIPT_ONLY) assert.ok(archived.has(p), `${p} not archived after the resume`);
    for (const r of records.filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? ''))) assert.ok(r.thumbnail, `${r.url} has no thumbnail`);
  });

  it('names the paths it tried when no browser is found', async () => {
    const missing = path.join(tmp, 'no-such-browser');
    const run = await runHarvest(['crawl', `${site.origin}/`, '--out', path.join(tmp, 'nobrowser'), '--render', '--browser-path', missing]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, new RegExp(`tried: ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(run.stderr, /--browser-path or HARVEST_CHROMIUM/);
    assert.ok(!existsSync(path.join(tmp, 'nobrowser', 'catalogue.sqlite')), 'no archive is made');
  });
});
