/**
 * A host that stops answering mid-crawl (a restart, a short outage) is waited for, with a doubling
 * back-off and a message, and its URLs are fetched when it is back; one that stays away is given up
 * after the outage limit, its URLs recorded as failed, which `harvest resume --retry-failed` tries
 * again in the finished crawl.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlEvent, UrlRecord } from '../../shared/crawl.js';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';

const PAGES = 200;

/**
 * A site of PAGES pages linked from its home page, which goes away after `upFor` requests (its port
 * refuses connections) and comes back on the same port after `downMs` (never, when null).
 */
async function startFlakySite(upFor: number, downMs: number | null) {
  let served = 0;
  let back: NodeJS.Timeout | undefined;
  const handle = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    const p = req.url ?? '/';
    served++;
    // No connection outlives its answer, so once the port is closed every request is refused.
    res.writeHead(200, { 'Content-Type': 'text/html', Connection: 'close' });
    if (p === '/') res.end(Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}.html">${i}</a>`).join('\n'));
    else setTimeout(() => res.end(`<title>${p}</title>`), 5);
    if (served === upFor) {
      server.close();
      if (downMs !== null) back = setTimeout(() => (server = listen(port)), downMs);
    }
  };
  const listen = (p: number): Server => createServer(handle).listen(p, '127.0.0.1');
  let server = listen(0);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  // A crawl that gave up early must not leave the site to come back after the test.
  const stop = (): void => {
    clearTimeout(back);
    server.close();
  };
  return { origin: `http://127.0.0.1:${port}`, stop };
}

describe('a host that stops answering mid-crawl', () => {
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-outage-'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function crawl(name: string, origin: string, outageLimitMs?: number) {
    const messages: string[] = [];
    const onEvent = (e: CrawlEvent): void => {
      if (e.type === 'state' && e.message) messages.push(e.message);
    };
    const job = parseJob({ seeds: [`${origin}/`], politeness: { perHostConnections: 2, delayMs: 0, respectRobots: false } });
    const archive = Archive.create(path.join(work, name), job);
    try {
      const state = await new Crawl(archive, { onEvent, retryBackoffMs: 50, ...(outageLimitMs !== undefined && { outageLimitMs }) }).run();
      const records: UrlRecord[] = [...archive.catalogue.iterateRecords()];
      return { state, messages, records };
    } finally {
      archive.close();
    }
  }

  it('waits for a host that is down for a few seconds, then archives everything', async () => {
    const site = await startFlakySite(40, 3_000);
    let run;
    try {
      run = await crawl('back', site.origin);
    } finally {
      site.stop();
    }
    assert.equal(run.state, 'finished');
    const failed = run.records.filter((r) => r.state !== 'archived');
    assert.deepEqual(failed.map((r) => `${r.url} ${r.state} ${r.error}`), []);
    assert.equal(run.records.length, PAGES + 1);
    const host = new URL(site.origin).host;
    assert.ok(run.messages.some((m) => m.startsWith(`${host} is not answering (`) && /its URLs wait for it, for up to 5 min$/.test(m)), run.messages.join('\n'));
    assert.ok(run.messages.some((m) => m.startsWith(`${host} answers again after `)), run.messages.join('\n'));
  });

  it('gives a host that stays away up after the outage limit, saying so', async () => {
    const site = await startFlakySite(40, null);
    const run = await crawl('gone', site.origin, 1_500);
    site.stop();
    assert.equal(run.state, 'finished');
    const failed = run.records.filter((r) => r.state === 'failed');
    assert.ok(failed.length > 100, `${failed.length} failed`);
    for (const r of failed) assert.match(r.error ?? '', /^network: .*ECONNREFUSED/);
    assert.ok(run.messages.some((m) => /has not answered for .*; its URLs are recorded as failed \(harvest resume --retry-failed tries them again\)$/.test(m)), run.messages.join('\n'));
  });

  it('harvest resume --retry-failed tries a finished crawl\'s failed URLs again, and follows their links', async () => {
    let mended = false;
    const server = createServer((req, res) => {
      const p = req.url ?? '/';
      if (p === '/a.html' && !mended) {
        // Broken chunked framing: a failure recorded at once, without retries.
        req.socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n');
        return;
      }
      res.writeHead(p.endsWith('.html') || p === '/' ? 200 : 404, { 'Content-Type': 'text/html' });
      res.end(p === '/' ? '<a href="/a.html">a</a> <a href="/b.html">b</a>' : p === '/a.html' ? '<a href="/c.html">c</a>' : '<title>x</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = path.join(work, 'retry-failed');
    const state = (p: string) => listRecords(dir).find((r) => r.url === `${origin}${p}`)?.state;
    try {
      const first = await runHarvest(['crawl', `${origin}/`, '--out', dir, '--quiet', '--delay-ms', '0', '--ignore-robots']);
      assert.equal(first.status, 0, first.stderr);
      assert.equal(state('/a.html'), 'failed');
      assert.match(first.stderr, new RegExp(`to try the failed URLs again: harvest resume .*retry-failed\\n$`));
      const plain = await runHarvest(['resume', dir, '--quiet']);
      assert.equal(plain.status, 0, plain.stderr);
      assert.equal(state('/a.html'), 'failed', 'a plain resume of a finished crawl leaves it be');

      mended = true;
      const again = await runHarvest(['resume', dir, '--retry-failed']);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stderr, /^1 failed URL queued again$/m);
      assert.equal(state('/a.html'), 'archived');
      assert.equal(state('/c.html'), 'archived', 'the retried page\'s links were followed');
    } finally {
      server.close();
    }
  });
});
