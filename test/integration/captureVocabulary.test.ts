/**
 * A re-crawl's error statuses are counted as `harvest stats` and the job page count them: a 404
 * that was a 404 before is an HTTP error of the capture, not "unchanged", and `harvest captures`
 * says "HTTP errors" where it used to say "failed".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary } from '../../shared/captures.js';
import { readArchiveStats, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

describe('capture outcomes in the words of the stats', { timeout: 120_000 }, () => {
  let work: string;
  let server: Server;
  let archive: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-capture-words-'));
    server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<a href="/gone.html">gone</a> <a href="/broken.html">broken</a> <a href="/a.html">a</a>');
      if (req.url === '/a.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>a</p>');
      if (req.url === '/broken.html') return void res.writeHead(500, { 'Content-Type': 'text/html' }).end('oops');
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('not here');
    });
    const origin = await listenOnLoopback(server);
    archive = path.join(work, 'archive');
    const first = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0', '--ignore-robots']);
    assert.equal(first.status, 0, first.stderr);
    const again = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(again.status, 0, again.stderr);
  });
  after(() => {
    server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("counts a capture's error statuses as HTTP errors, as harvest stats does", async () => {
    const stats = readArchiveStats(archive);
    const captures = JSON.parse((await runHarvest(['captures', archive, '--json'])).stdout) as CaptureSummary[];
    assert.equal(captures.length, 2);
    for (const k of captures) {
      assert.equal(k.counts.httpErrors, stats.counts.httpErrors, `capture ${k.id}: ${JSON.stringify(k.counts)}`);
      assert.equal(k.counts.failed, 0);
    }
    assert.equal(captures[1]!.counts.unchanged, 2, 'the home page and a.html; the 404 and the 500 are HTTP errors');
    const text = (await runHarvest(['captures', archive])).stdout;
    assert.match(text, /capture 2\t.*2 HTTP errors, 0 failed/);
    const changes = (await runHarvest(['changes', archive])).stdout;
    assert.match(changes, /2 unchanged, .*2 HTTP errors, 0 failed/);
  });
});
