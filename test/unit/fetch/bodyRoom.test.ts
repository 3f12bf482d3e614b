import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it, type TestContext } from 'node:test';
import { LARGE_BODY_BYTES } from '../../../electron/engine/fetch/exchange.js';
import { Fetcher } from '../../../electron/engine/fetch/fetcher.js';
import { fetcherOptions, startHttpServer } from './fixtures.js';

/** A room that answers only when told to, recording what it was asked. */
function heldRoom() {
  const asked: (number | null)[] = [];
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    asked,
    open: () => open(),
    room: (bytes: number | null): Promise<void> => {
      asked.push(bytes);
      return opened;
    },
  };
}

/** Resolves once `check` holds, polling; names what never happened. */
async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Fetcher: a large body waits for room (bodyRoom)', () => {
  const BIG = 3 * LARGE_BODY_BYTES;
  async function setup(t: TestContext, deadlineMs = 60_000) {
    const server = await startHttpServer((req, res) => {
      const body = Buffer.alloc(req.url === '/small' ? 1000 : BIG, 'a');
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(gzipSync(body));
      } else if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write(body.subarray(0, 10));
        res.end(body.subarray(10));
      } else {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(body.length) });
        res.end(body);
      }
    });
    const fetcher = new Fetcher(fetcherOptions({ maxRetries: 0, deadlineMs }));
    t.after(async () => {
      await fetcher.close();
      await server.close();
    });
    return { server, fetcher };
  }

  it('a small body never asks', async (t) => {
    const { server, fetcher } = await setup(t);
    const room = heldRoom();
    const res = await fetcher.fetch(`${server.url}/small`, { bodyRoom: room.room });
    assert.equal(res.body.length, 1000);
    assert.deepEqual(room.asked, []);
  });

  // A compressed body asks once it knows its decoded size (the gzip trailer's), before that is held.
  for (const [path, asked, what] of [
    ['/declared', BIG, 'its declared size'],
    ['/chunked', null, 'its unknown size'],
    ['/gzip', BIG, 'its decoded size'],
  ] as const) {
    it(`${path}: the body is not finished until room is given, and asks for ${what}`, async (t) => {
      const { server, fetcher } = await setup(t);
      const room = heldRoom();
      let done = false;
      const fetching = fetcher.fetch(`${server.url}${path}`, { bodyRoom: room.room }).finally(() => (done = true));
      await until(() => room.asked.length > 0, 'room was asked for');
      // The reply is held while the room is not given (a loaded machine gets generous time to prove it).
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(done, false, 'the body was finished without room');
      room.open();
      const res = await fetching;
      assert.equal(res.body.length, BIG);
      assert.deepEqual(room.asked, [asked]);
    });
  }

  it('the deadline does not count the wait for room', async (t) => {
    const { server, fetcher } = await setup(t, 1_500);
    const room = heldRoom();
    const fetching = fetcher.fetch(`${server.url}/declared`, { bodyRoom: room.room });
    await until(() => room.asked.length > 0, 'room was asked for');
    await new Promise((r) => setTimeout(r, 2_500));
    room.open();
    assert.equal((await fetching).body.length, BIG);
  });
});
