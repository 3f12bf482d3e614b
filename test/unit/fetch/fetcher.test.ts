import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it, type TestContext } from 'node:test';
import zlib from 'node:zlib';
import { Fetcher, type FetcherOptions, type RetryInfo } from '../../../electron/engine/fetch/fetcher.js';
import {
  brotliBomb,
  closedPort,
  fetcherOptions,
  gzipBomb,
  isFetchError,
  startHttpServer,
  startRawServer,
  type TestServer,
} from './fixtures.js';

const MB = 1024 * 1024;

function newFetcher(t: TestContext, overrides: Partial<FetcherOptions> = {}): Fetcher {
  const fetcher = new Fetcher(fetcherOptions(overrides));
  t.after(() => fetcher.close());
  return fetcher;
}

async function serve(t: TestContext, server: Promise<TestServer>): Promise<TestServer> {
  const started = await server;
  t.after(() => started.close());
  return started;
}

/** Polls until `condition` holds; fails after a generous limit rather than hanging. */
async function waitFor(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves with how long the promise took to reject, after checking its error. */
async function timeRejection(promise: Promise<unknown>, check: (err: unknown) => boolean): Promise<number> {
  const started = Date.now();
  await assert.rejects(promise, check);
  return Date.now() - started;
}

const HEAD_200 = (extra = ''): string => `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n${extra}\r\n`;

describe('Fetcher: ordinary responses', () => {
  it('GETs with our headers and reports status, headers, body and peer', async (t) => {
    let seen: IncomingHttpHeaders = {};
    const server = await serve(
      t,
      startHttpServer((req, res) => {
        seen = req.headers;
        res.writeHead(200, 'Fine', [
          'Content-Type', 'text/html; charset=utf-8',
          'Set-Cookie', 'a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT',
          'Set-Cookie', 'b=2',
          'X-Mixed-Case', 'yes',
        ]);
        res.end('<p>hello</p>');
      }),
    );
    const fetcher = newFetcher(t);
    const url = `${server.url}/page?q=1`;
    const res = await fetcher.fetch(url);

    assert.equal(res.url, url);
    assert.equal(res.status, 200);
    assert.equal(res.statusText, 'Fine');
    assert.equal(res.httpVersion, '1.1');
    assert.equal(res.contentType, 'text/html; charset=utf-8');
    assert.equal(res.location, null);
    assert.equal(res.headers['set-cookie'], 'a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT\nb=2');
    assert.ok(res.rawHeaders.some(([name, value]) => name === 'X-Mixed-Case' && value === 'yes'));
    assert.equal(res.body.toString(), '<p>hello</p>');
    assert.deepEqual(res.wireBody, res.body);
    assert.equal(res.remoteAddress, '127.0.0.1');
    assert.ok(res.startedAt instanceof Date);
    assert.ok(res.durationMs >= 0);

    assert.equal(seen['user-agent'], 'HarvestTest/1.0 (+http://example.invalid/)');
    assert.match(seen['accept'] ?? '', /text\/html/);
    assert.equal(seen['accept-encoding'], 'gzip, deflate, br');
    const sent = new Map(res.requestHeaders.map(([name, value]) => [name.toLowerCase(), value]));
    assert.equal(sent.get('user-agent'), seen['user-agent']);
    assert.equal(sent.get('accept-encoding'), 'gzip, deflate, br');
    assert.equal(sent.get('host'), new URL(server.url).host);
  });

  it('returns a redirect with its Location instead of following it', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res) => {
        res.writeHead(301, { Location: '/elsewhere' });
        res.end();
      }),
    );
    const res = await newFetcher(t).fetch(`${server.url}/old`);
    assert.equal(res.status, 301);
    assert.equal(res.location, '/elsewhere');
    assert.equal(server.requests, 1);
  });

  it('decodes gzip, x-gzip, deflate (zlib and raw) and br, keeping the wire bytes', async (t) => {
    const page = Buffer.from('<!doctype html><p>Ünïcødé text</p>\n'.repeat(500));
    const encodings: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', zlib.gzipSync(page)],
      '/x-gzip': ['x-gzip', zlib.gzipSync(page)],
      '/deflate-zlib': ['deflate', zlib.deflateSync(page)],
      '/deflate-raw': ['deflate', zlib.deflateRawSync(page)],
      '/br': ['br', zlib.brotliCompressSync(page)],
      '/identity': ['identity', page],
    };
    const server = await serve(
      t,
      startHttpServer((req, res) => {
        const [coding, wire] = encodings[req.url ?? ''] ?? ['identity', Buffer.alloc(0)];
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': coding });
        res.end(wire);
      }),
    );
    const fetcher = newFetcher(t);
    for (const [path, [, wire]] of Object.entries(encodings)) {
      const res = await fetcher.fetch(server.url + path);
      assert.deepEqual(res.body, page, path);
      assert.deepEqual(res.wireBody, wire, path);
    }
  });
});

describe('Fetcher: connections', () => {
  it('reuses one kept-alive connection for sequential requests', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res) => res.end('ok')),
    );
    const fetcher = newFetcher(t);
    for (let i = 0; i < 20; i++) {
      assert.equal((await fetcher.fetch(`${server.url}/${i}`)).status, 200);
    }
    assert.equal(server.requests, 20);
    assert.equal(server.connections, 1);
  });

  it('never opens more than connectionsPerOrigin connections to an origin', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res) => setTimeout(() => res.end('slow'), 100)),
    );
    const fetcher = newFetcher(t, { connectionsPerOrigin: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => fetcher.fetch(`${server.url}/${i}`)));
    assert.ok(results.every((res) => res.status === 200));
    assert.equal(server.requests, 6);
    assert.ok(server.peakConnections <= 2, `peak was ${server.peakConnections}`);
  });

  it('does not retry a refused connection', async (t) => {
    const port = await closedPort();
    const retries: RetryInfo[] = [];
    await assert.rejects(
      newFetcher(t, { maxRetries: 3 }).fetch(`http://127.0.0.1:${port}/`, { onRetry: (info) => retries.push(info) }),
      isFetchError('network'),
    );
    assert.equal(retries.length, 0);
  });

  it('rejects what is not an http(s) URL', async (t) => {
    const fetcher = newFetcher(t);
    await assert.rejects(fetcher.fetch('ftp://example.org/file'), isFetchError('invalid-url'));
    await assert.rejects(fetcher.fetch('not a url'), isFetchError('invalid-url'));
  });
});

describe('Fetcher: timeouts', () => {
  it('gives up on a server dripping a byte every 100 ms at the deadline, before the idle timer', async (t) => {
    const server = await serve(
      t,
      startRawServer((socket) => {
        socket.write(HEAD_200('Content-Length: 1000000\r\n'));
        const drip = setInterval(() => socket.write('x'), 100);
        socket.on('close', () => clearInterval(drip));
      }),
    );
    const fetcher = newFetcher(t, { deadlineMs: 1000, bodyIdleTimeoutMs: 20_000, maxRetries: 2 });
    const took = await timeRejection(fetcher.fetch(server.url), isFetchError('deadline'));
    assert.ok(took >= 900 && took < 15_000, `took ${took} ms`);
    assert.equal(server.requests, 1, 'a missed deadline is not retried');
  });

  it('times out waiting for headers', async (t) => {
    const server = await serve(t, startRawServer(() => {}));
    const fetcher = newFetcher(t, { headersTimeoutMs: 500, maxRetries: 0 });
    const took = await timeRejection(fetcher.fetch(server.url), isFetchError('timeout-headers'));
    assert.ok(took < 15_000, `took ${took} ms`);
  });

  it('times out when the body stalls', async (t) => {
    const server = await serve(
      t,
      startRawServer((socket) => socket.write(HEAD_200('Content-Length: 100\r\n') + 'partial')),
    );
    const fetcher = newFetcher(t, { bodyIdleTimeoutMs: 500, maxRetries: 0 });
    await assert.rejects(fetcher.fetch(server.url), isFetchError('timeout-body-idle'));
  });
});

describe('Fetcher: size limits', () => {
  it('rejects a declared Content-Length over the limit without reading the body', async (t) => {
    // The body never comes: only a rejection based on the header can finish this quickly.
    const server = await serve(
      t,
      startRawServer((socket) => socket.write(HEAD_200('Content-Length: 50000000\r\n'))),
    );
    const fetcher = newFetcher(t, { maxResponseBytes: MB, deadlineMs: 60_000 });
    const took = await timeRejection(fetcher.fetch(server.url), isFetchError('too-large'));
    assert.ok(took < 15_000, `took ${took} ms`);
    await waitFor(() => server.openConnections === 0, 'the connection to close');
  });

  it('aborts an endless chunked body once it passes the limit', async (t) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const server = await serve(
      t,
      startHttpServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      }),
    );
    const fetcher = newFetcher(t, { maxResponseBytes: MB, deadlineMs: 60_000 });
    await assert.rejects(fetcher.fetch(server.url), isFetchError('too-large'));
    await waitFor(() => server.openConnections === 0, 'the connection to close');
  });

  for (const [coding, makeBomb] of [
    ['gzip', async () => gzipBomb(1024)],
    ['br', () => brotliBomb(1024)],
  ] as const) {
    it(`rejects a ${coding} bomb (1 GiB decoded) as too large without decoding it all`, async (t) => {
      const bomb = await makeBomb();
      const server = await serve(
        t,
        startHttpServer((_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': coding });
          res.end(bomb);
        }),
      );
      const fetcher = newFetcher(t, { maxResponseBytes: 8 * MB });
      const rssBefore = process.memoryUsage().rss;
      const took = await timeRejection(fetcher.fetch(server.url), isFetchError('too-large'));
      const grown = process.memoryUsage().rss - rssBefore;
      assert.ok(took < 15_000, `took ${took} ms`);
      assert.ok(grown < 512 * MB, `memory grew by ${Math.round(grown / MB)} MiB`);
    });
  }
});

describe('Fetcher: retries', () => {
  const resetMidBody = (socket: import('node:net').Socket): void => {
    socket.write(HEAD_200('Content-Length: 1000\r\n') + 'x'.repeat(100));
    setTimeout(() => socket.resetAndDestroy(), 20);
  };

  it('retries a connection reset mid-body and succeeds when the server recovers', async (t) => {
    const server = await serve(
      t,
      startRawServer((socket, n) => {
        if (n === 1) resetMidBody(socket);
        else socket.end(HEAD_200('Content-Length: 2\r\nConnection: close\r\n') + 'ok');
      }),
    );
    const retries: RetryInfo[] = [];
    const res = await newFetcher(t).fetch(server.url, { onRetry: (info) => retries.push(info) });
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'ok');
    assert.equal(retries.length, 1);
    assert.equal(retries[0]?.attempt, 1);
    assert.match(retries[0]?.reason ?? '', /^network: /);
  });

  it('retries a connection closed in order mid-body, as it does a reset', async (t) => {
    const server = await serve(
      t,
      startRawServer((socket, n) => {
        if (n === 1) socket.end(HEAD_200('Content-Length: 1000\r\n') + 'x'.repeat(100));
        else socket.end(HEAD_200('Content-Length: 2\r\nConnection: close\r\n') + 'ok');
      }),
    );
    const retries: RetryInfo[] = [];
    const res = await newFetcher(t).fetch(server.url, { onRetry: (info) => retries.push(info) });
    assert.equal(res.body.toString(), 'ok');
    assert.equal(retries.length, 1);
    assert.match(retries[0]?.reason ?? '', /^network: connection closed after 100 bytes of the body \(Content-Length 1000\)/);
  });

  it('gives up with a network error when every attempt is reset', async (t) => {
    const server = await serve(t, startRawServer(resetMidBody));
    const retries: RetryInfo[] = [];
    await assert.rejects(
      newFetcher(t, { maxRetries: 2 }).fetch(server.url, { onRetry: (info) => retries.push(info) }),
      (err) => isFetchError('network')(err) && /gave up after 3 attempts/.test((err as Error).message),
    );
    assert.equal(server.requests, 3);
    assert.deepEqual(
      retries.map((r) => r.attempt),
      [1, 2],
    );
  });

  it('waits as Retry-After says after a 429, then returns the 200', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res, n) => {
        if (n === 1) {
          res.writeHead(429, { 'Retry-After': '1' });
          res.end('slow down');
        } else {
          res.end('welcome');
        }
      }),
    );
    const retries: RetryInfo[] = [];
    const started = Date.now();
    const res = await newFetcher(t).fetch(server.url, { onRetry: (info) => retries.push(info) });
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'welcome');
    assert.deepEqual(retries, [{ attempt: 1, waitMs: 1000, reason: 'HTTP 429' }]);
    assert.ok(Date.now() - started >= 950, 'the wait was honoured');
  });

  it('returns the last 503 once maxRetries are spent', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res) => {
        res.writeHead(503, { 'Content-Type': 'text/plain' });
        res.end('down for maintenance');
      }),
    );
    const retries: RetryInfo[] = [];
    const res = await newFetcher(t, { maxRetries: 3 }).fetch(server.url, { onRetry: (info) => retries.push(info) });
    assert.equal(res.status, 503);
    assert.equal(res.body.toString(), 'down for maintenance');
    assert.equal(server.requests, 4);
    assert.equal(retries.length, 3);
  });
});

describe('Fetcher: cancelling', () => {
  it('aborts an in-flight request promptly when the signal fires', async (t) => {
    const server = await serve(t, startRawServer(() => {}));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const took = await timeRejection(
      newFetcher(t).fetch(server.url, { signal: abort.signal }),
      isFetchError('aborted'),
    );
    assert.ok(took < 10_000, `took ${took} ms`);
    await waitFor(() => server.openConnections === 0, 'the connection to close');
  });

  it('aborts a retry wait when the signal fires', async (t) => {
    const server = await serve(
      t,
      startHttpServer((_req, res) => {
        res.writeHead(503, { 'Retry-After': '30' });
        res.end();
      }),
    );
    const abort = new AbortController();
    const took = await timeRejection(
      newFetcher(t).fetch(server.url, { signal: abort.signal, onRetry: () => abort.abort() }),
      isFetchError('aborted'),
    );
    assert.ok(took < 10_000, `took ${took} ms`);
    assert.equal(server.requests, 1);
  });

  it('rejects at once when the signal has already fired', async (t) => {
    const server = await serve(t, startHttpServer((_req, res) => res.end()));
    await assert.rejects(newFetcher(t).fetch(server.url, { signal: AbortSignal.abort() }), isFetchError('aborted'));
    assert.equal(server.requests, 0);
  });

  it('close() cancels fetches in flight and leaves no sockets or timers behind', async (t) => {
    const server = await serve(
      t,
      startHttpServer((req, res) => {
        if (req.url !== '/hang') res.end('ok');
      }),
    );
    const before = activeResources();
    const fetcher = new Fetcher(fetcherOptions());
    for (let i = 0; i < 3; i++) await fetcher.fetch(`${server.url}/${i}`);
    const hanging = assert.rejects(fetcher.fetch(`${server.url}/hang`), isFetchError('aborted'));
    await waitFor(() => server.requests === 4, 'the hanging request to arrive');

    await fetcher.close();
    await hanging;
    await assert.rejects(fetcher.fetch(server.url), isFetchError('aborted'));
    await waitFor(() => server.openConnections === 0, 'every connection to close');
    const after = activeResources();
    assert.ok(after.sockets <= before.sockets, `sockets: ${before.sockets} before, ${after.sockets} after`);
    assert.ok(after.timers <= before.timers, `timers: ${before.timers} before, ${after.timers} after`);
  });
});

/** Handles keeping the event loop alive, by kind. */
function activeResources(): { sockets: number; timers: number } {
  const kinds = process.getActiveResourcesInfo();
  return {
    sockets: kinds.filter((kind) => kind === 'TCPSocketWrap').length,
    timers: kinds.filter((kind) => kind === 'Timeout').length,
  };
}
