/**
 * Retry-After speaks for the whole host: nothing goes to it before the time it named. And a retry
 * goes out when its wait is over, ahead of the URLs still queued, not behind all of them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';

interface Logged {
  path: string;
  atMs: number;
}

/**
 * A site of `pages` pages linked from its home page after /busy, each answered after `latencyMs`;
 * /busy answers `busyStatus` with Retry-After `retryAfterS` the first time. Requests are logged with
 * when they arrived; /busy's first answer with when it was sent.
 */
async function startSite(opts: { pages: number; latencyMs: number; busyStatus: number; retryAfterS: number }) {
  const log: Logged[] = [];
  let busyAnsweredAtMs = 0;
  const pages = Array.from({ length: opts.pages }, (_, i) => `/p${i}.html`);
  const server: Server = createServer((req, res) => {
    const p = req.url ?? '/';
    log.push({ path: p, atMs: Date.now() });
    if (p === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(['/busy', ...pages].map((l) => `<a href="${l}">${l}</a>`).join('\n'));
    } else if (p === '/busy' && busyAnsweredAtMs === 0) {
      res.writeHead(opts.busyStatus, { 'Retry-After': String(opts.retryAfterS), 'Content-Type': 'text/plain' });
      res.end('not now', () => (busyAnsweredAtMs = Date.now()));
    } else {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(`<title>${p}</title>`);
      }, opts.latencyMs);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, log, server, pages, busyAnsweredAtMs: () => busyAnsweredAtMs };
}

describe('Retry-After holds the host, and a due retry goes ahead of the queue', () => {
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-retry-after-'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function crawl(name: string, origin: string, perHostConnections: number): Promise<void> {
    const job = parseJob({ seeds: [`${origin}/`], politeness: { perHostConnections, delayMs: 0, respectRobots: false } });
    const archive = Archive.create(path.join(work, name), job);
    try {
      assert.equal(await new Crawl(archive, { retryBackoffMs: 100 }).run(), 'finished');
    } finally {
      archive.close();
    }
  }

  it('sends nothing to a host in the seconds its 503 named, on any connection', async () => {
    const site = await startSite({ pages: 100, latencyMs: 30, busyStatus: 503, retryAfterS: 2 });
    try {
      await crawl('held', site.origin, 2);
    } finally {
      site.server.close();
    }
    const sent = site.busyAnsweredAtMs();
    // The other connection's request may have been on its way when the 503 came: one at most.
    const during = site.log.filter((r) => r.atMs > sent && r.atMs < sent + 1_900);
    assert.ok(during.length <= 1, `${during.length} requests within Retry-After: ${during.map((r) => r.path).join(' ')}`);
    const retried = site.log.filter((r) => r.path === '/busy');
    assert.equal(retried.length, 2);
    assert.ok(retried[1]!.atMs >= sent + 1_900, `retried ${retried[1]!.atMs - sent} ms after the 503`);
    assert.equal(site.log.length, 1 + 2 + 100, 'the home page and every page once, /busy twice');
  });

  it('retries a 429 when its Retry-After is over, ahead of the URLs still queued', async () => {
    const site = await startSite({ pages: 150, latencyMs: 20, busyStatus: 429, retryAfterS: 1 });
    try {
      await crawl('ahead', site.origin, 1);
    } finally {
      site.server.close();
    }
    const paths = site.log.map((r) => r.path);
    const first = paths.indexOf('/busy');
    const second = paths.indexOf('/busy', first + 1);
    assert.ok(second > first, 'retried');
    // One connection, and the host held until the time it named: the retry is the next request.
    assert.equal(second, first + 1, `retried after ${second - first - 1} other requests (${paths.slice(first + 1, second).join(' ')}), ${paths.length - second - 1} still to go`);
  });
});
