import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary } from '../../shared/captures.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { extractZip } from '../helpers/zipReadBack.js';

interface PageLine {
  url: string;
  ts: string;
}

const PAGES: Record<string, string> = {
  '/': '<html><head><title>Home</title></head><body><a href="/c">C</a></body></html>',
  '/b': '<html><head><title>B</title></head><body><a href="/">home</a></body></html>',
  '/c': '<html><head><title>C</title></head><body>C</body></html>',
};

describe('the main page of a WACZ of two captures', () => {
  let work: string;
  let origin: string;
  const server = createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    if (page === undefined) return void res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-wacz-main-'));
    origin = await listenOnLoopback(server);
  });

  after(() => {
    server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is the first seed as the last capture fetched it', async () => {
    const archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${origin}/`, `${origin}/b`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    // A WACZ dates pages to the second (as its index does): two captures in one second could not be told apart.
    await sleep(1_100);
    const recrawl = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(recrawl.status, 0, recrawl.stderr);
    const captures = JSON.parse((await runHarvest(['captures', archive, '--json'])).stdout) as CaptureSummary[];
    assert.deepEqual(captures.map((c) => c.id), [1, 2]);
    const c2 = captures[1]!;

    const wacz = path.join(work, 'two.wacz');
    const run = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(run.status, 0, run.stderr);
    const dir = path.join(work, 'two');
    await extractZip(wacz, dir);
    const [, ...lines] = readFileSync(path.join(dir, 'pages', 'pages.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const home = lines.map((l) => JSON.parse(l) as PageLine).filter((p) => p.url === `${origin}/`);
    assert.equal(home.length, 2, 'the first seed is listed once per capture');
    // Page times are whole seconds (the record's WARC-Date), so capture 2 starts at its second.
    const from = Math.floor(Date.parse(c2.startedAt) / 1000) * 1000;
    const inSecond = home.filter((p) => Date.parse(p.ts) >= from && Date.parse(p.ts) <= Date.parse(c2.finishedAt!));
    assert.equal(inSecond.length, 1, `the first seed's second capture among ${JSON.stringify(home)} (capture 2 from ${c2.startedAt})`);

    const pkg = JSON.parse(readFileSync(path.join(dir, 'datapackage.json'), 'utf8')) as { mainPageUrl?: string; mainPageDate?: string };
    assert.deepEqual({ url: pkg.mainPageUrl, ts: pkg.mainPageDate }, { url: `${origin}/`, ts: inSecond[0]!.ts }, 'main page: the first seed, at its time in the last capture');
  });
});
