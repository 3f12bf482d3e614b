import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';

describe('a seed that redirects to another host', () => {
  let work: string;
  let server: Server;
  let port: number;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-seedredir-'));
    // Asked as localhost, the site sends everyone to its canonical host 127.0.0.1, as sites do with www.
    // (A host no seed names may be on loopback only where the job allows it, hence allowNetworks below.)
    server = createServer((req, res) => {
      if (req.headers.host?.startsWith('localhost')) {
        res.writeHead(301, { Location: `http://127.0.0.1:${port}${req.url}` }).end();
        return;
      }
      if (req.url === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(req.url === '/' ? '<a href="/about.html">About</a>' : '<p>About us</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
  });

  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('crawls the site the seed redirected to, as if it were the seed', async () => {
    const archive = Archive.create(path.join(work, 'a'), parseJob({ seeds: [`http://localhost:${port}/`], politeness: { delayMs: 0 }, allowNetworks: ['127.0.0.0/8'] }));
    try {
      assert.equal(await new Crawl(archive).run(), 'finished');
      const c = archive.catalogue;
      assert.equal(c.lookup(`http://localhost:${port}/`)?.state, 'redirect');
      assert.equal(c.lookup(`http://127.0.0.1:${port}/`)?.state, 'archived');
      assert.equal(c.lookup(`http://127.0.0.1:${port}/about.html`)?.state, 'archived');
    } finally {
      archive.close();
    }
  });
});
