import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkWatch } from '../../../electron/engine/render/networkWatch.js';

/** Milliseconds `p` took, with its value. */
async function timed<T>(p: Promise<T>): Promise<[T, number]> {
  const start = Date.now();
  const v = await p;
  return [v, Date.now() - start];
}

describe('NetworkWatch.idle', () => {
  it('with nothing in flight, waits the grace period only', async () => {
    const net = new NetworkWatch();
    await sleep(200);
    // A long quiet period, so a loaded machine's late timers cannot pass for it.
    const [quiet, ms] = await timed(net.idle(1_000, 5_000, 50));
    assert.equal(quiet, true);
    assert.ok(ms >= 45 && ms < 900, `took ${ms} ms`);
  });

  it('waits for the request in flight to end, then for the quiet period', async () => {
    const net = new NetworkWatch();
    net.started();
    setTimeout(() => net.finished(), 200);
    const [quiet, ms] = await timed(net.idle(150, 2_000, 50));
    assert.equal(quiet, true);
    assert.ok(ms >= 345 && ms < 1_500, `took ${ms} ms`);
  });

  it('starts the quiet period again when a request starts during it', async () => {
    const net = new NetworkWatch();
    setTimeout(() => net.started(), 40);
    setTimeout(() => net.finished(), 120);
    const [quiet, ms] = await timed(net.idle(150, 2_000, 50));
    assert.equal(quiet, true);
    assert.ok(ms >= 265 && ms < 1_500, `took ${ms} ms`);
  });

  it('gives up after maxMs while a request stays in flight', async () => {
    const net = new NetworkWatch();
    net.started();
    const [quiet, ms] = await timed(net.idle(150, 300, 50));
    assert.equal(quiet, false);
    assert.ok(ms >= 295 && ms < 1_500, `took ${ms} ms`);
  });

  it('rejects when its signal aborts', async () => {
    const net = new NetworkWatch();
    net.started();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(net.idle(150, 5_000, 50, ac.signal));
  });
});
