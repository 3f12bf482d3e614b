import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QaPageResult, QaPatchReport } from '../../shared/qa.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { solidPng } from '../helpers/jsSite.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';
import { extractZip } from '../helpers/zipReadBack.js';

const CHROMIUM = '/usr/bin/chromium';

/** The HTTP status a response record's block starts with. */
const httpStatusOf = (r: RawRecord): number => Number(/^HTTP\/[\d.]+ (\d{3})/.exec(r.block.toString('latin1'))?.[1]);

/**
 * The home page's script builds four addresses a static crawl cannot see: a large image and a text
 * it writes into the page (both relative, so the offline copy can serve them once archived), an
 * image under a path robots.txt forbids, and one on another loopback host (a private address).
 */
const home = (far: string) => `<!doctype html><html><head><title>Home</title></head><body style="margin:0;background:#fff">
<h1>Patched home</h1><p id="story"></p><p><a href="/plain">plain</a></p>
<script>
const add = (src) => { const i = new Image(); i.src = src; i.width = 800; i.height = 400; document.body.appendChild(i); };
add(['pi', 'cs/sky.png'].join(''));
add(['pri', 'vate/hidden.png'].join(''));
add(${JSON.stringify(far)} + ['/f', 'ar.png'].join(''));
fetch(['wor', 'ds/story.txt'].join('')).then((r) => r.text()).then((t) => (document.getElementById('story').textContent = t));
</script></body></html>`;

const STORY = 'Once upon a time the words of this page came only through its script, fetched as a text file after the page had loaded, so a crawl that reads the markup never saw them.';

describe('harvest patch: fetching what the analysis found missing', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 600_000 }, () => {
  let work: string;
  let site: Server;
  let far: Server;
  let origin: string;
  let farOrigin: string;
  const archive = () => path.join(work, 'archive');
  /** The plain page's image answers 404 until the crawl is over (a server that was having trouble then). */
  let lateUp = false;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-patch-'));
    far = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(80, 80, [20, 160, 20])));
    await new Promise<void>((resolve) => far.listen(0, '127.0.0.2', resolve));
    farOrigin = `http://127.0.0.2:${(far.address() as AddressInfo).port}`;
    const files: Record<string, [string, string | Buffer]> = {
      '/': ['text/html', home(farOrigin)],
      '/plain': ['text/html', '<!doctype html><html><head><title>Plain</title></head><body><h1>Plain page</h1><p>Nothing built by script.</p><img src="/late.png" width="400" height="300"></body></html>'],
      '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\n'],
      '/pics/sky.png': ['image/png', solidPng(800, 400, [30, 90, 220])],
      '/private/hidden.png': ['image/png', solidPng(40, 40, [200, 0, 0])],
      '/words/story.txt': ['text/plain', STORY],
      '/late.png': ['image/png', solidPng(400, 300, [240, 160, 0])],
    };
    site = createServer((req, res) => {
      const file = req.url === '/late.png' && !lateUp ? undefined : files[req.url ?? ''];
      if (!file) return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    origin = await listenOnLoopback(site);
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive(), '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    lateUp = true;
  });

  after(async () => {
    await Promise.all([site, far].map((s) => new Promise((resolve) => s?.close(resolve))));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('fetches the script-built resources the job allows, says why it left the others, and the page scores higher', async () => {
    // Both copies, the offline mirror and the WACZ replay: the patch analyses its pages again with the copies they were compared with.
    const qa = await runHarvest(['qa', archive(), '--json', '--quiet', '--browser-path', CHROMIUM], { timeoutMs: 300_000 });
    assert.equal(qa.status, 0, qa.stderr);
    const firstPages = (JSON.parse(qa.stdout) as { pages: QaPageResult[] }).pages;
    const first = firstPages.find((p) => p.url === `${origin}/`);
    assert.ok(first, qa.stdout);
    assert.deepEqual(Object.keys(first.copies).sort(), ['mirror', 'replay']);
    // The replay shows the image's 404 of the crawl.
    const replayMissing = (page: QaPageResult | undefined) => (page?.copies.replay?.missing ?? []).map((m) => m.url).sort();
    assert.deepEqual(replayMissing(firstPages.find((p) => p.url === `${origin}/plain`)), [`${origin}/late.png`], qa.stdout);
    const missing = first.missing.map((m) => m.url).sort();
    assert.deepEqual(missing, [`${farOrigin}/far.png`, `${origin}/pics/sky.png`, `${origin}/private/hidden.png`, `${origin}/words/story.txt`].sort());

    const run = await runHarvest(['patch', archive(), '--json', '--quiet', '--browser-path', CHROMIUM], { timeoutMs: 300_000 });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as QaPatchReport;
    const outcome = (url: string) => report.resources.find((r) => r.url === url);
    assert.equal(outcome(`${origin}/pics/sky.png`)?.outcome, 'fetched', run.stdout);
    assert.equal(outcome(`${origin}/words/story.txt`)?.outcome, 'fetched', run.stdout);
    assert.equal(outcome(`${origin}/private/hidden.png`)?.outcome, 'skipped', run.stdout);
    assert.match(outcome(`${origin}/private/hidden.png`)?.detail ?? '', /robots/);
    assert.equal(outcome(`${farOrigin}/far.png`)?.outcome, 'skipped', run.stdout);
    assert.match(outcome(`${farOrigin}/far.png`)?.detail ?? '', /address/);
    assert.equal(outcome(`${origin}/late.png`)?.outcome, 'fetched', run.stdout);
    assert.match(run.stderr, /3 of 5 missing resources fetched; 2 pages analysed again/);

    // Only the pages that lacked them are analysed again, and they now match better.
    assert.deepEqual(report.pages.map((p) => p.url).sort(), [`${origin}/`, `${origin}/plain`]);
    const page = report.pages.find((p) => p.url === `${origin}/`);
    assert.ok(page!.after.textMatch! > page!.before.textMatch!, JSON.stringify(page));
    assert.ok(page!.after.screenshotMatch! > page!.before.screenshotMatch!, JSON.stringify(page));
    assert.deepEqual([page!.before.missing, page!.after.missing], [4, 2]);
    const plain = report.pages.find((p) => p.url === `${origin}/plain`)!;
    assert.deepEqual([plain.before.missing, plain.after.missing], [1, 0]);
    assert.ok(plain.after.screenshotMatch! > plain.before.screenshotMatch!, JSON.stringify(plain));
    // The image the crawl got a 404 for is now the copy's own file: its reference was rewritten to it.
    const plainCopy = readFileSync(path.join(archive(), 'mirror', new URL(origin).host.replace(':', '_'), 'plain.html'), 'utf8');
    assert.match(plainCopy, /<img src="late\.png"/);

    // The analysis kept the new figures, the replay's too: the pages lack only what the job's rules keep
    // out, and the replay shows the fetched resources, the image the crawl got a 404 for included.
    const again = await runHarvest(['qa', archive(), '--json', '--quiet', '--browser-path', CHROMIUM], { timeoutMs: 300_000 });
    const againPages = (JSON.parse(again.stdout) as { pages: QaPageResult[] }).pages;
    const now = againPages.find((p) => p.url === `${origin}/`)!;
    assert.deepEqual(Object.keys(now.copies).sort(), ['mirror', 'replay'], 'analysed again with both copies');
    assert.deepEqual(now.missing.map((m) => m.url).sort(), [`${farOrigin}/far.png`, `${origin}/private/hidden.png`].sort());
    assert.deepEqual(replayMissing(now), [`${farOrigin}/far.png`, `${origin}/private/hidden.png`].sort(), again.stdout);
    assert.deepEqual(replayMissing(againPages.find((p) => p.url === `${origin}/plain`)), [], again.stdout);

    // Patching again finds only what the rules keep out, and fetches nothing.
    const second = await runHarvest(['patch', archive(), '--json', '--quiet', '--browser-path', CHROMIUM], { timeoutMs: 300_000 });
    assert.equal(second.status, 0, second.stderr);
    const secondReport = JSON.parse(second.stdout) as QaPatchReport;
    assert.deepEqual(secondReport.resources.map((r) => r.outcome), ['skipped', 'skipped'], second.stdout);
    assert.deepEqual(secondReport.pages, []);

    // The fetched resources are WARC records of the archive, and its WACZ still verifies.
    const warcDir = path.join(archive(), 'warc');
    const uris = new Set<string | null>();
    const lateStatuses: number[] = [];
    for (const f of readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'))) {
      for (const r of await readRaw(path.join(warcDir, f))) {
        if (r.type !== 'response') continue;
        uris.add(r.header('WARC-Target-URI'));
        if (r.header('WARC-Target-URI') === `${origin}/late.png`) lateStatuses.push(httpStatusOf(r));
      }
    }
    for (const url of ['/pics/sky.png', '/words/story.txt', '/late.png']) assert.ok(uris.has(`${origin}${url}`), `${url}: ${JSON.stringify([...uris])}`);
    assert.ok(!uris.has(`${origin}/private/hidden.png`) && !uris.has(`${farOrigin}/far.png`), JSON.stringify([...uris]));
    // The crawl's 404 stays in the WARC files beside the patch's 200.
    assert.deepEqual(lateStatuses.sort(), [200, 404]);
    const wacz = path.join(work, 'patched.wacz');
    const exported = await runHarvest(['export', archive(), '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exported.status, 0, exported.stderr);
    const verified = await runHarvest(['verify', wacz, '--deep']);
    assert.equal(verified.status, 0, verified.stdout + verified.stderr);
    // The WACZ's index lists the patched 200 as the capture's record of the image, not the 404 it supersedes.
    const index = (await extractZip(wacz, path.join(work, 'patched'))).find((e) => e.name === 'indexes/index.cdx');
    assert.ok(index, 'the WACZ has indexes/index.cdx');
    const lateLines = readFileSync(path.join(work, 'patched', 'indexes', 'index.cdx'), 'utf8').split('\n').filter((l) => l.includes(`"${origin}/late.png"`));
    assert.deepEqual(lateLines.map((l) => (JSON.parse(l.slice(l.indexOf(' {') + 1)) as { status: string }).status), ['200'], lateLines.join('\n'));
  });

  it('refuses an archive whose capture was never analysed', async () => {
    const other = path.join(work, 'unanalysed');
    const crawl = await runHarvest(['crawl', `${origin}/plain`, '--out', other, '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    const run = await runHarvest(['patch', other, '--browser-path', CHROMIUM]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /no page analysis to patch from: run harvest qa first/);
  });
});
