/**
 * The archive folder renamed mid-crawl: the crawl stops with a message saying where to resume it,
 * nothing is written at the old path, and a resume at the new place finishes with every archived
 * URL's file in the offline copy.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';

const PAGES = 60;

describe('the archive folder renamed mid-crawl', () => {
  let work: string;
  let server: Server;
  let origin: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-moved-'));
    // Slow pages (40 ms, one connection): the crawl takes some 2.5 s, and the rename comes early.
    // Each page in a folder of its own, so that each save makes a folder (by path, recursively).
    server = createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(
          req.url === '/'
            ? Array.from({ length: PAGES }, (_, i) => `<a href="/s${i}/page.html">${i}</a>`).join('')
            : `<title>${req.url}</title><a href="/">home</a>`,
        );
      }, 40);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('stops with a clear message, writes nothing at the old path, and resumes at the new place with nothing lost', async () => {
    const oldDir = path.join(work, 'archive');
    const newDir = path.join(work, 'renamed');
    const crawl = runHarvest(['crawl', `${origin}/`, '--out', oldDir, '--quiet', '--delay-ms', '0', '--ignore-robots']);
    // Renamed once the crawl has saved a few pages.
    const deadline = Date.now() + 20_000;
    while (!existsSync(path.join(oldDir, 'mirror', new URL(origin).host.replace(':', '_'), 's3', 'page.html')) && Date.now() < deadline) await sleep(10);
    renameSync(oldDir, newDir);
    const r = await crawl;
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`the archive folder was moved or renamed while crawling: resume it at its new place with 'harvest resume ${newDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`));
    assert.doesNotMatch(r.stderr, /resume with: harvest resume/);
    assert.equal(existsSync(oldDir), false, `nothing was written at the old path (${existsSync(oldDir) ? readdirSync(oldDir, { recursive: true }).join(', ') : ''})`);

    const resumed = await runHarvest(['resume', newDir, '--quiet']);
    assert.equal(resumed.status, 0, resumed.stderr);
    const records = listRecords(newDir);
    const archived = records.filter((u) => u.state === 'archived');
    assert.equal(archived.length, PAGES + 1, `${archived.length} archived of ${PAGES + 1}`);
    for (const u of archived) {
      assert.ok(u.localPath, u.url);
      assert.ok(existsSync(path.join(newDir, 'mirror', u.localPath)), `${u.url}: ${u.localPath} is in the offline copy`);
    }
    assert.equal(existsSync(oldDir), false);
  });
});
