/**
 * A full disk met by the crawl's own timer (the catalogue's periodic checkpoint) stops the crawl as
 * 'failed' with the reason, rather than ending the process with an uncaught exception.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';

describe('a full disk at the catalogue checkpoint', () => {
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-checkpoint-full-'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('fails the crawl with the reason and records it', async () => {
    // Slow pages keep the crawl running past its first checkpoint (one a second).
    const server = createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(req.url === '/' ? Array.from({ length: 100 }, (_, i) => `<a href="/p${i}.html">${i}</a>`).join('') : '<title>p</title>');
      }, 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = path.join(work, 'archive');
    const archive = Archive.create(dir, parseJob({ seeds: [`${origin}/`], politeness: { perHostConnections: 1, delayMs: 0, respectRobots: false } }));
    archive.catalogue.checkpoint = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    try {
      const crawl = new Crawl(archive);
      assert.equal(await crawl.run(), 'failed');
      assert.equal(crawl.failure?.message, 'database or disk is full');
      assert.equal(archive.catalogue.getMeta('state'), 'failed');
    } finally {
      archive.close();
      server.close();
    }
  });
});
