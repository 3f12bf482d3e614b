import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';
import { CHROMIUM, launchChromium, replayFrame, startViewerServer } from '../helpers/replayViewer.js';
import { extractZip } from '../helpers/zipReadBack.js';

/** What the checks below use of the replayed page's DOM (the project builds without DOM types). */
interface ReplayedImage {
  complete: boolean;
  naturalWidth: number;
  currentSrc: string;
  src: string;
  scrollIntoView(): void;
}
declare const document: { images: ArrayLike<ReplayedImage>; querySelectorAll(selector: string): ArrayLike<unknown> };

/** Pages at depth 3 or more that show images of their own site. */
async function deepPagesWithImages(archive: string, origin: string): Promise<string[]> {
  const found: string[] = [];
  for (const r of listRecords(archive)) {
    if (found.length >= 3) break;
    if (r.state !== 'archived' || r.depth < 3 || !/^text\/html/.test(r.contentType ?? '')) continue;
    const html = await (await fetch(r.url)).text();
    if (new RegExp(`<img[^>]+src="(/|${origin})`).test(html)) found.push(r.url);
  }
  return found;
}

describe('a WACZ in ReplayWeb.page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let work: string;
  let site: BenchSite;
  let viewer: { close(): unknown } | null = null;
  let browser: Browser | null = null;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-rwp-'));
    site = await startBenchSite({ pages: 150, workDir: work });
  });

  after(async () => {
    await browser?.close();
    viewer?.close();
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('replays a deep page with its images', async () => {
    const archive = path.join(work, 'archive');
    // Query-string variants (catalogue pages, calendars) add crawl time and nothing to this check.
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--max-depth', '3', '--exclude', '[?]', '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    const wacz = path.join(work, 'site.wacz');
    const exported = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exported.status, 0, exported.stderr);
    const [deep] = await deepPagesWithImages(archive, site.origin);
    assert.ok(deep, 'the crawl reached a page at depth 3 with images');
    // Replay must come from the WACZ alone.
    await site.stop();

    const started = await startViewerServer(wacz, deep);
    viewer = started.server;
    browser = await launchChromium();
    const frame = await replayFrame(browser, started.origin, deep);
    await frame.waitForFunction(() => document.images.length > 0, undefined, { timeout: 30_000 });
    // Lazy images load once scrolled to.
    await frame.evaluate(async () => {
      for (const img of Array.from(document.images)) {
        img.scrollIntoView();
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    await frame.waitForFunction(() => Array.from(document.images).every((i) => i.complete), undefined, {
      timeout: 30_000,
    });
    const images = await frame.evaluate(() =>
      Array.from(document.images).map((i) => ({ src: i.currentSrc || i.src, width: i.naturalWidth })),
    );
    assert.ok(images.length > 0);
    for (const img of images) assert.ok(img.width > 0, `image ${img.src} rendered`);
    const title = await frame.title();
    assert.ok(title.length > 0, 'the page rendered with its title');
  });
});

describe('a WACZ of two captures in ReplayWeb.page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let work: string;
  const servers: { close(): unknown }[] = [];
  let browser: Browser | null = null;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-rwp-captures-'));
  });

  after(async () => {
    await browser?.close();
    for (const s of servers) s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows each capture of a changed page, the unchanged stylesheet through its revisit', async () => {
    const home = (words: string) =>
      `<!doctype html><html><head><title>Home</title><link rel="stylesheet" href="/s.css"></head><body><p id="words">${words}</p></body></html>`;
    const files: Record<string, [string, string]> = {
      '/': ['text/html', home('First words.')],
      '/s.css': ['text/css', 'body { color: rgb(1, 2, 3) }'],
    };
    const site = createServer((req, res) => {
      const f = files[req.url ?? ''];
      if (!f) return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    servers.push(site);
    const addr = site.address();
    const origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const archive = path.join(work, 'archive');
    assert.equal((await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0'])).status, 0);
    files['/'] = ['text/html', home('Second words.')];
    // WARC-Date has whole seconds: the captures must not share one.
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await runHarvest(['recrawl', archive, '--quiet'])).status, 0);
    const wacz = path.join(work, 'two.wacz');
    const exported = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exported.status, 0, exported.stderr);
    site.close();

    const stamps = await seedStamps(wacz, path.join(work, 'two'), `${origin}/`);
    assert.equal(stamps.length, 2);
    browser = await launchChromium();
    for (const [i, words] of ['First words.', 'Second words.'].entries()) {
      const viewer = await startViewerServer(wacz, `${origin}/`, stamps[i]);
      servers.push(viewer.server);
      const frame = await replayFrame(browser, viewer.origin, `${origin}/`);
      assert.equal((await frame.textContent('#words'))?.trim(), words, `capture ${i + 1}`);
      await frame.waitForFunction('getComputedStyle(document.body).color === "rgb(1, 2, 3)"', undefined, { timeout: 30_000 });
    }
  });
});

/**
 * The 14-digit time of each capture of `url`, from the WACZ's own index: the replay is asked for
 * each record at its WARC-Date. (A capture's end time was used before: once a crawl took 0.2 s, the
 * seed was sometimes fetched in the second before its capture ended, and the replay, asked for the
 * next second, took the later capture.)
 */
async function seedStamps(wacz: string, dir: string, url: string): Promise<string[]> {
  await extractZip(wacz, dir);
  const lines = readFileSync(path.join(dir, 'indexes', 'index.cdx'), 'utf8').split('\n').filter(Boolean);
  return lines
    .map((line) => /^\S+ (\d{14}) (.*)$/.exec(line)!)
    .filter((m) => (JSON.parse(m[2]!) as { url: string }).url === url)
    .map((m) => m[1]!)
    .sort();
}

describe('a WACZ of a --render crawl in ReplayWeb.page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let work: string;
  let site: JsSite;
  const servers: { close(): unknown }[] = [];
  let browser: Browser | null = null;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-rwp-render-'));
    site = await startJsSite();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const s of servers) s.close();
    await site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /**
   * Crawls the JS site with `flags`, exports a WACZ and replays its listing page from the WACZ:
   * the listing's items as shown, the status the replay gave the listing script's /api/items.json,
   * requests that tried to leave 127.0.0.0/8 (aborted) and requests that reached the live site.
   */
  async function replayListing(name: string, flags: string[]) {
    const archive = path.join(work, name);
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--quiet', '--delay-ms', '0', ...flags], { timeoutMs: 180_000 });
    assert.equal(crawl.status, 0, crawl.stderr);
    const wacz = path.join(work, `${name}.wacz`);
    const exported = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exported.status, 0, exported.stderr);
    const listing = `${site.origin}/listing`;
    const viewer = await startViewerServer(wacz, listing);
    servers.push(viewer.server);
    const context = await browser!.newContext();
    const offLoopback: string[] = [];
    // Service workers' requests (ReplayWeb.page reads the WACZ from one) pass through here too.
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname)) return route.continue();
      offLoopback.push(url.href);
      return route.abort('blockedbyclient');
    });
    const liveBefore = site.requests.length;
    try {
      const api = context.waitForEvent('response', { predicate: (r) => r.url().endsWith(`mp_/${site.origin}/api/items.json`), timeout: 60_000 });
      const frame = await replayFrame(context, viewer.origin, listing);
      const apiStatus = (await api).status();
      // Filled from the archived JSON, or given a moment to show that nothing comes.
      if (apiStatus === 200) await frame.waitForFunction(() => document.querySelectorAll('#items li').length >= 2, undefined, { timeout: 30_000 });
      else await frame.waitForTimeout(1_000);
      const items = await frame.locator('#items li').allInnerTexts();
      const visible = (await frame.locator('#items li').count()) > 0 && (await frame.locator('#items li').first().isVisible());
      return { items: items.map((t) => t.trim()), visible, apiStatus, offLoopback, liveRequests: site.requests.slice(liveBefore) };
    } finally {
      await context.close();
    }
  }

  it('replays the listing its script built from /api/items.json, with nothing leaving 127.0.0.0/8', async () => {
    const r = await replayListing('rendered', ['--render', '--browser-path', CHROMIUM]);
    assert.equal(r.apiStatus, 200, 'the JSON the page fetched while rendering is in the WACZ');
    assert.deepEqual(r.items.slice(0, 2), ['Item Alpha', 'Item Beta']);
    assert.ok(r.visible, 'the listing is shown');
    assert.deepEqual(r.offLoopback, []);
    assert.deepEqual(r.liveRequests, [], 'replayed from the WACZ alone');
  });

  it('a static crawl of the same site replays an empty listing (what --render adds)', async () => {
    const r = await replayListing('static', []);
    assert.equal(r.apiStatus, 404, 'the JSON was never fetched');
    assert.deepEqual(r.items, []);
    assert.deepEqual(r.offLoopback, []);
    assert.deepEqual(r.liveRequests, []);
  });
});
