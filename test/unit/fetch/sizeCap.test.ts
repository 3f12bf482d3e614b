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
