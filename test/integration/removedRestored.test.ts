/**
 * A page removed in one capture and back in a later one: while gone, the viewer shows its copy
 * under the date of the capture that made the copy, not of the answer that found it gone; when it
 * comes back, the capture reports it restored, not new.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChangeReport } from '../../shared/captures.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

describe('a page removed and restored', { timeout: 120_000 }, () => {
  let work: string;
  let server: Server;
  let archive: string;
  let gone = false;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-restored-'));
    server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Home</title><a href="/b.html">b</a>');
      if (req.url === '/b.html' && !gone) return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>B</title><p>the page b</p>');
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('not here');
    });
    const origin = await listenOnLoopback(server);
    archive = path.join(work, 'archive');
    const first = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0', '--ignore-robots']);
    assert.equal(first.status, 0, first.stderr);
  });
  after(() => {
    server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const pageB = () => {
    const a = Archive.open(archive, { readonly: true });
    try {
      const b = a.catalogue.capturesOf([...a.catalogue.iterateRecords()].find((r) => r.url.endsWith('/b.html'))!.url);
      const localPath = b.find((c) => c.localPath !== null)!.localPath!;
      return { captures: b, page: a.catalogue.pageAt(localPath) };
    } finally {
      a.close();
    }
  };

  it('shows a removed page under the date of its copy, and reports its return as restored', async () => {
    gone = true;
    const second = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(second.status, 0, second.stderr);
    const whileGone = pageB();
    assert.deepEqual(whileGone.captures.map((c) => [c.capture, c.outcome]), [[1, 'new'], [2, 'removed']]);
    assert.equal(whileGone.page?.capturedAt, whileGone.captures[0]!.fetchedAt, "capture 1's date: the copy shown is capture 1's");
    assert.notEqual(whileGone.page?.capturedAt, whileGone.captures[1]!.fetchedAt);

    gone = false;
    const third = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(third.status, 0, third.stderr);
    const changes = JSON.parse((await runHarvest(['changes', archive, '--json'])).stdout) as ChangeReport;
    assert.deepEqual([changes.capture, changes.counts.restored, changes.counts.new], [3, 1, 0]);
    assert.deepEqual(changes.restored.map((u) => new URL(u).pathname), ['/b.html']);
    assert.match((await runHarvest(['changes', archive])).stdout, /0 new, 1 restored,[\s\S]*^restored:\n {2}http:\/\/[^/]+\/b\.html$/m);
    assert.match((await runHarvest(['captures', archive])).stdout, /capture 3\t.*0 new, 1 restored/);
    // Against capture 1, where it was, it is no change at all.
    const since1 = JSON.parse((await runHarvest(['changes', archive, '--since', '1', '--json'])).stdout) as ChangeReport;
    assert.equal(since1.counts.restored, 0);
    const back = pageB();
    assert.equal(back.page?.capturedAt, back.captures[2]!.fetchedAt, 'back: the date of capture 3');
  });
});
