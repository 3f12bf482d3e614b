import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Fetcher } from '../../../electron/engine/fetch/fetcher.js';
import { fetcherOptions, isFetchError, startHttpServer } from './fixtures.js';

const LIMIT = 64 * 1024;

describe('Fetcher: maxResponseBytes is the largest body accepted', () => {
  async function setup(t: TestContext) {
    const server = await startHttpServer((req, res) => {
      const m = /^\/(declared|chunked)\/(\d+)$/.exec(req.url ?? '')!;
      const body = Buffer.alloc(Number(m[2]), 'a');
      res.setHeader('Content-Type', 'text/plain');
      if (m[1] === 'declared') res.end(body);
      else {
        // No Content-Length: chunked, so only the bytes as they arrive can be counted.
        res.write(body.subarray(0, 10));
        res.end(body.subarray(10));
      }
    });
    const fetcher = new Fetcher(fetcherOptions({ maxResponseBytes: LIMIT, maxRetries: 0 }));
    t.after(async () => {
      await fetcher.close();
      await server.close();
    });
    return { server, fetcher };
  }

  for (const framing of ['declared', 'chunked'] as const) {
    it(`${framing}: exactly the limit is accepted, one byte more is too large`, async (t) => {
      const { server, fetcher } = await setup(t);
      const exact = await fetcher.fetch(`${server.url}/${framing}/${LIMIT}`);
      assert.equal(exact.status, 200);
      assert.equal(exact.body.length, LIMIT);
      await assert.rejects(fetcher.fetch(`${server.url}/${framing}/${LIMIT + 1}`), isFetchError('too-large'));
    });
  }
});

describe('Fetcher: a body over 1 MiB of declared length', () => {
  it('arrives whole, byte for byte, however the wire cuts it', async (t) => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length });
      // Uneven pieces, so some straddle the buffer's own boundaries.
      for (let at = 0; at < body.length; at += 65_537) res.write(body.subarray(at, Math.min(body.length, at + 65_537)));
      res.end();
    });
    const fetcher = new Fetcher(fetcherOptions({ maxRetries: 0 }));
    t.after(async () => {
      await fetcher.close();
      await server.close();
    });
    const rooms: (number | null)[] = [];
    const res = await fetcher.fetch(`${server.url}/file`, { bodyRoom: async (bytes) => void rooms.push(bytes) });
    assert.equal(res.body.length, body.length);
    assert.ok(res.body.equals(body));
    assert.deepEqual(rooms, [body.length], 'room asked once, for the declared length');
  });
});

