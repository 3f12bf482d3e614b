import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QaPageResult } from '../../shared/qa.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';

const TEXT = {
  1: 'The first version of this page talks about apples and pears and nothing else at all.',
  2: 'A second version replaced it: bananas, cherries, plums and a long list of other fruit now.',
};

describe('harvest qa --capture: an earlier capture compared from its own records', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 400_000 }, () => {
  let work: string;
  let server: Server;
  let origin: string;
  let version: 1 | 2 = 1;
  const archive = () => path.join(work, 'archive');

  const qa = async (...args: string[]) => {
    const run = await runHarvest(['qa', archive(), '--json', '--quiet', '--browser-path', CHROMIUM, ...args], { timeoutMs: 300_000 });
    return { run, pages: run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as { pages: QaPageResult[] }).pages };
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-captures-'));
    server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>Home</title></head><body><h1>Home</h1><p>${TEXT[version]}</p><a href="/b">b</a></body></html>`);
      if (req.url === '/b') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><title>B</title></head><body><h1>B</h1><p>Unchanged.</p></body></html>');
      res.writeHead(404).end();
    });
    origin = await listenOnLoopback(server);
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive(), '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    version = 2;
    const recrawl = await runHarvest(['recrawl', archive(), '--quiet']);
    assert.equal(recrawl.status, 0, recrawl.stderr);
  });

  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('scores capture 1 of a changed page against the live page from capture 1’s text, and capture 2 from the offline copy', async () => {
    const first = await qa('--capture', '1');
    assert.equal(first.run.status, 0, first.run.stderr);
    assert.match(first.run.stderr, /qa: capture 1:/);
    const home1 = first.pages.find((p) => p.url === `${origin}/`)!;
    assert.equal(home1.capture, 1);
    assert.ok(home1.textMatch! < 0.7, `capture 1 text ${home1.textMatch}`);
    assert.equal(first.pages.find((p) => p.url === `${origin}/b`)?.textMatch, 1);
    const kept = readFileSync(path.join(archive(), 'qa', '1', new URL(origin).host.replace(':', '_'), 'index.html.copy.txt'), 'utf8');
    assert.match(kept, /apples and pears/);

    const second = await qa();
    assert.equal(second.run.status, 0, second.run.stderr);
    assert.equal(second.pages.find((p) => p.url === `${origin}/`)?.textMatch, 1);

    const none = await qa('--capture', '3');
    assert.equal(none.run.status, 2);
    assert.match(none.run.stderr, /the archive has no capture 3 \(captures 1 to 2\)/);
  });
});
