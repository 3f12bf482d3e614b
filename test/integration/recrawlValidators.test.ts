import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const LAST_MODIFIED = 'Tue, 03 Mar 2026 10:00:00 GMT';

/** Three files with validators of their own; a conditional request that matches them is answered 304. */
const FILES: Record<string, [string, string]> = {
  '/': ['text/html', '<html><head><link rel="stylesheet" href="/s.css"></head><body><a href="/a">A</a></body></html>'],
  '/a': ['text/html', '<html><body><p>Page A</p><a href="/">home</a></body></html>'],
  '/s.css': ['text/css', 'body { color: black }'],
};
const etagOf = (p: string) => `"v1${p.replace(/\W/g, '-')}"`;

/** The conditional headers of one request, as the server received them. */
interface Received {
  path: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
}

describe('re-crawls against a server with validators', () => {
  let work: string;
  let origin: string;
  let received: Received[] = [];
  const server = createServer((req, res) => {
    const p = req.url ?? '';
    const file = FILES[p];
    if (!file) return void res.writeHead(404).end('no');
    const ifNoneMatch = req.headers['if-none-match'] ?? null;
    const ifModifiedSince = req.headers['if-modified-since'] ?? null;
    received.push({ path: p, ifNoneMatch, ifModifiedSince });
    const validators = { etag: etagOf(p), 'last-modified': LAST_MODIFIED };
    if (ifNoneMatch === etagOf(p) || (ifNoneMatch === null && ifModifiedSince === LAST_MODIFIED)) return void res.writeHead(304, validators).end();
    res.writeHead(200, { 'content-type': file[0], ...validators }).end(file[1]);
  });

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-recrawl-validators-'));
    origin = await listenOnLoopback(server);
  });

  after(() => {
    server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a URL whose last capture was a 304 sends its validators again on the next re-crawl', async () => {
    const archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    assert.deepEqual(received.map((r) => r.path).sort(), Object.keys(FILES).sort());
    const expected = Object.keys(FILES)
      .sort()
      .map((p) => ({ path: p, ifNoneMatch: etagOf(p), ifModifiedSince: LAST_MODIFIED }));
    // The first re-crawl asks with the validators of the 200s; the second with those its 304s kept.
    for (const round of ['first', 'second']) {
      received = [];
      const recrawl = await runHarvest(['recrawl', archive, '--quiet']);
      assert.equal(recrawl.status, 0, recrawl.stderr);
      const sorted = [...received].sort((a, b) => (a.path < b.path ? -1 : 1));
      assert.deepEqual(sorted, expected, `conditional headers of the ${round} re-crawl, as the server received them`);
    }
  });
});
