/**
 * `harvest report`: its figures are those of `harvest stats --json`, its sections account for every
 * URL left out, and the HTML report is one file that Chromium renders with no request beyond itself.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { QaReport } from '../../electron/engine/report/collect.js';
import { PROJECT_ROOT } from '../helpers/benchSite.js';
import { readArchiveStats, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { tinyPdf } from '../helpers/tinyPdf.js';

const html = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Page</title></head><body>${body}</body></html>`;

const SITE: Record<string, { status?: number; type: string; body: string | Buffer }> = {
  '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
  '/': {
    type: 'text/html',
    body: html('<a href="/a.html">a</a> <a href="/missing.html">gone</a> <a href="/private/x.html">private</a> <a href="/big.pdf">pdf</a> <a href="/b/b/b/b/x.html">deep</a> <a href="/odd.bin">odd</a>'),
  },
  '/a.html': { type: 'text/html', body: html('<p>Page a links to <a href="/missing.html">a missing page</a> and <a href="/broken.html">a broken one</a>.</p>') },
  '/broken.html': { status: 500, type: 'text/html', body: 'oops' },
  '/big.pdf': { type: 'application/pdf', body: tinyPdf(['A report'], 'Report') },
  '/b/b/b/b/x.html': { type: 'text/html', body: html('<p>deep</p>') },
  // Markup and a Markdown image in a header the report shows.
  '/odd.bin': { type: 'application/x-odd<img src=x onerror=alert(1)>![t](http://tracker.test/p.png)', body: 'odd' },
};

describe('QA report', { timeout: 180_000 }, () => {
  let work: string;
  let server: Server;
  let origin: string;
  let archive: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-report-'));
    server = createServer((req, res) => {
      const p = SITE[(req.url ?? '/').split('?')[0]!];
      if (!p) return void res.writeHead(404, { 'Content-Type': 'text/html' }).end('not here');
      res.writeHead(p.status ?? 200, { 'Content-Type': p.type }).end(p.body);
    });
    origin = await listenOnLoopback(server);
    archive = path.join(work, 'archive');
    const r = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--max-segment-repeats', '2', '--quiet', '--delay-ms', '0']);
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => {
    server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const report = async (): Promise<QaReport> => {
    const r = await runHarvest(['report', archive, '--format', 'json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as QaReport;
  };

  it('has the figures of harvest stats --json, and accounts for every URL in its sections', async () => {
    const q = await report();
    const stats = readArchiveStats(archive);
    assert.deepEqual(q.stats, stats);
    const sum = (xs: { count: number }[]) => xs.reduce((a, x) => a + x.count, 0);
    assert.equal(sum(q.byMimeType), stats.byState.archived);
    assert.equal(sum(q.byMimeType.map((m) => ({ count: m.bytes }))), q.byMimeType.reduce((a, m) => a + m.bytes, 0));
    assert.equal(sum(q.skipped) + sum(q.trapGuards), stats.byState.skipped);
    assert.equal(sum(q.httpErrors), stats.byState['http-error']);
    assert.equal(sum(q.failures), stats.byState.failed);
    assert.deepEqual(q.skipped.find((s) => s.reason === 'robots')?.examples, [`${origin}/private/x.html`]);
    assert.deepEqual(q.trapGuards.map((t) => t.guard), ['segment-repeats']);
    assert.deepEqual(q.httpErrors.map((h) => [h.status, h.count]).sort(), [[404, 1], [500, 1]]);
    assert.equal(q.robots.policy, 'obeyed');
    assert.deepEqual(q.robots.sites.map((s) => [s.site, s.httpStatus]), [[origin, 200]]);
    assert.equal(q.largestFiles[0]!.bytes, Math.max(...q.largestFiles.map((f) => f.bytes)));
  });

  it('says which links were left absolute and why', async () => {
    const q = await report();
    const notFound = q.absoluteLinks.find((l) => l.reason === 'HTTP 404');
    assert.ok(notFound, JSON.stringify(q.absoluteLinks));
    assert.equal(notFound.count, 2, 'from / and from a.html');
    assert.deepEqual(notFound.examples.map((e) => e.to), [`${origin}/missing.html`, `${origin}/missing.html`]);
    assert.ok(q.absoluteLinks.some((l) => l.reason === 'skipped: robots'));
  });

  it('lists the WARC files with their SHA-256 and counts the payload digests', async () => {
    const q = await report();
    assert.ok(q.checksums.warcFiles.length >= 1);
    for (const w of q.checksums.warcFiles) {
      const digest = createHash('sha256').update(readFileSync(path.join(archive, 'warc', w.name))).digest('hex');
      assert.equal(w.sha256, digest);
    }
    assert.ok(q.checksums.payloadDigests >= 4);
    assert.deepEqual(q.thumbnails, []);
  });

  it('writes Markdown with every section, in the words and units of the app', async () => {
    const described = await runHarvest(['metadata', archive, '--set', 'description=The lab pages, before the move', '--set', 'creator=Records office']);
    assert.equal(described.status, 0, described.stderr);
    const r = await runHarvest(['report', archive, '--format', 'md']);
    assert.equal(r.status, 0, r.stderr);
    // Decimal SI sizes and durations in words, as the app says them; the job form's names for the limits.
    assert.doesNotMatch(r.stdout, /[KMG]iB|\d B\b/);
    assert.match(r.stdout, /\| bytes fetched \| \d+(\.\d)? (bytes|kB) \|/);
    assert.match(r.stdout, /\| Crawl time \| (less than a second|\d+ s) \|/);
    assert.match(r.stdout, /\| Limits \| Max depth: none, Max pages: none, Max size: none, Max duration: none \|/);
    assert.match(r.stdout, /\| Name \| \S/, 'the Name row is filled in');
    // The Dublin Core fields that are set, and only those.
    assert.match(r.stdout, /## Description \(Dublin Core\)[\s\S]*\| Creator \| Records office \|[\s\S]*\| Description \| The lab pages, before the move \|/);
    assert.doesNotMatch(r.stdout, /\| Publisher \|/);
    for (const h of ['Totals by state', 'Archived by MIME type', 'Skipped, by reason', 'Crawler-trap guards hit', 'HTTP errors', 'robots.txt', 'Largest files', 'Links left absolute', 'Page analysis', 'Checksums']) {
      assert.match(r.stdout, new RegExp(`^## ${h}`, 'm'), h);
    }
    // What the site sent is shown as text: no HTML, no image a Markdown viewer would load.
    assert.doesNotMatch(r.stdout, /<img/);
    assert.doesNotMatch(r.stdout, /!\[t\]\(/);
    assert.match(r.stdout, /application\/x-odd&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it('renders the HTML report in Chromium from one file, with no other request', async () => {
    const file = path.join(work, 'report.html');
    const r = await runHarvest(['report', archive, '--format', 'html', '--out', file]);
    assert.equal(r.status, 0, r.stderr);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      assert.deepEqual(requests, [pathToFileURL(file).href]);
      assert.equal(await page.locator('h2').count(), 14);
      assert.match(await page.locator('body').innerText(), /HTTP errors[\s\S]*404/);
      const shots = path.join(PROJECT_ROOT, 'test-results', 'screenshots');
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: path.join(shots, 'qa-report.png'), fullPage: true });
      await page.emulateMedia({ media: 'print' });
      assert.ok((await page.pdf()).length > 1000, 'prints');
    } finally {
      await browser.close();
    }
  });
});
