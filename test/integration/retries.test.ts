/**
 * What a crawl retries and how: broken framing is recorded at once; transient failures (a body cut
 * short by a close among them) get at most two retries, each after a back-off rather than on a held
 * connection (then ahead of the URLs still queued: retryAfterHost.test.ts); and the attempts
 * survive a kill.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UrlRecord } from '../../shared/crawl.js';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { CLI } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';

const PAGES = ['/p1.html', '/p2.html', '/p3.html', '/p4.html', '/p5.html'];
const BROKEN = ['/bad-chunk', '/http09'];
/** /short-body: a body cut short by the server's close, which is how a reset often looks too. */
const TRANSIENT = ['/always-503', '/reset', '/no-headers', '/short-body'];
const HEADERS_TIMEOUT_MS = 300;

function html(body: string): string {
  return `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A raw HTTP/1.1 server (one request per connection), so it can break framing on purpose. */
async function startRawServer(answer: (path: string, socket: Socket) => void): Promise<{ origin: string; log: string[]; server: Server }> {
  const log: string[] = [];
  const held = new Set<Socket>();
  const server = createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (d) => {
      const p = d.toString('latin1').split(' ')[1] ?? '/';
      log.push(p);
      answer(p, socket);
    });
  });
  server.on('close', () => {
    for (const s of held) s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, server };
}

function site(p: string, socket: Socket): void {
  const links = [...PAGES, ...BROKEN, ...TRANSIENT].map((l) => `<a href="${l}">${l}</a>`).join('\n');
  if (p === '/') return void socket.end(html(`<title>home</title>${links}`));
  if (PAGES.includes(p)) return void socket.end(html(`<title>${p}</title>`));
  if (p === '/short-body') return void socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\nonly twenty bytes...');
  if (p === '/bad-chunk') return void socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n');
  if (p === '/http09') return void socket.end('<html>an answer without a status line</html>\n');
  if (p === '/always-503') return void socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy');
  // Reset before a byte of the answer (a reset mid-body can reach the client as an orderly close).
  if (p === '/reset') return void socket.resetAndDestroy();
  if (p === '/no-headers') return; // holds the connection without a word
  socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
}

describe('retries', () => {
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-retries-'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('records broken framing at once, retries transient failures twice after a back-off, and says so', async () => {
    const { origin, log, server } = await startRawServer(site);
    const job = parseJob({
      seeds: [`${origin}/`],
      politeness: { perHostConnections: 1, delayMs: 0, respectRobots: false },
      fetch: { headersTimeoutMs: HEADERS_TIMEOUT_MS },
    });
    const archive = Archive.create(path.join(work, 'in-process'), job);
    let records: Map<string, UrlRecord>;
    try {
      assert.equal(await new Crawl(archive, { retryBackoffMs: 100 }).run(), 'finished');
      records = new Map([...archive.catalogue.iterateRecords()].map((r) => [new URL(r.url).pathname, r]));
    } finally {
      archive.close();
      server.close();
    }
    const requests = (p: string) => log.filter((l) => l === p).length;

    for (const p of BROKEN) {
      assert.equal(requests(p), 1, `${p} was asked for ${requests(p)} times`);
      const r = records.get(p)!;
      assert.equal(r.state, 'failed', p);
      assert.match(r.error ?? '', /^protocol: /, `${p}: ${r.error}`);
    }

    for (const p of TRANSIENT) assert.equal(requests(p), 3, `${p} was asked for ${requests(p)} times`);
    const busy = records.get('/always-503')!;
    assert.equal(busy.state, 'http-error');
    assert.equal(busy.error, 'HTTP 503 Service Unavailable (gave up after 3 attempts)');
    assert.equal(records.get('/reset')!.state, 'failed');
    assert.match(records.get('/reset')!.error!, /^network: .*\(gave up after 3 attempts\)$/);
    assert.match(records.get('/no-headers')!.error!, /^timeout-headers: .*\(gave up after 3 attempts\)$/);
    assert.match(records.get('/short-body')!.error!, /^network: connection closed after 20 bytes of the body \(Content-Length 100\).*\(gave up after 3 attempts\)$/);
    for (const p of PAGES) assert.equal(records.get(p)?.state, 'archived', p);

    // One connection, and a retry never holds it: another request went out between two attempts.
    for (const p of ['/always-503', '/reset']) {
      const first = log.indexOf(p);
      assert.notEqual(log[first + 1], p, `${p} was retried at once: ${log.join(' ')}`);
    }
  });

  it('keeps the attempts made before a kill: a URL gets three in all across runs', async () => {
    let child: ReturnType<typeof spawn> | null = null;
    let busyAnswers = 0;
    const { origin, log, server } = await startRawServer((p, socket) => {
      if (p !== '/flaky') return site(p, socket);
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy', () => {
        // Killed while the URL waits for its third attempt (the back-off is 2 s and more).
        if (++busyAnswers === 2) setTimeout(() => child?.kill('SIGKILL'), 500);
      });
    });
    const seed = `${origin}/flaky`;
    const dir = path.join(work, 'killed');
    try {
      const killed = await new Promise<NodeJS.Signals | null>((resolve) => {
        child = spawn(process.execPath, [CLI, 'crawl', seed, '--out', dir, '--quiet', '--delay-ms', '0'], { stdio: 'ignore' });
        child.once('exit', (_code, signal) => resolve(signal));
      });
      assert.equal(killed, 'SIGKILL', 'the crawl ended before the kill');
      assert.equal(busyAnswers, 2);
      const resumed = await runHarvest(['resume', dir, '--quiet']);
      // Its only seed ended in an HTTP error: nothing was harvested, which is a failed crawl.
      assert.equal(resumed.status, 1, resumed.stderr);
      assert.match(resumed.stderr, /nothing was harvested: .*the server had a problem \(HTTP 503\): try again later/);
    } finally {
      server.close();
    }
    assert.equal(log.filter((l) => l === '/flaky').length, 3);
    const record = listRecords(dir).find((r) => r.url === seed)!;
    assert.equal(record.state, 'http-error');
    assert.equal(record.error, 'HTTP 503 Service Unavailable (gave up after 3 attempts)');
  });
});
