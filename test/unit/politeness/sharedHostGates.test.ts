import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGatesBuffer, SharedHostGates } from '../../../electron/engine/politeness/sharedHostGates.js';

/** Two registries on one buffer stand for two crawl workers of one process. */
function pair(now: () => number) {
  const buffer = createHostGatesBuffer();
  return [new SharedHostGates(buffer, now), new SharedHostGates(buffer, now)] as const;
}

describe('host gates shared across threads', () => {
  it('keeps two crawls on one host within the stricter connection limit together', async () => {
    const [a, b] = pair(() => 1000);
    const r1 = a.tryAcquire('example.org', { maxConnections: 2, delayMs: 0 });
    const r2 = b.tryAcquire('example.org', { maxConnections: 4, delayMs: 0 });
    assert.equal(typeof r1, 'function');
    assert.equal(typeof r2, 'function');
    assert.equal(b.tryAcquire('example.org', { maxConnections: 4, delayMs: 0 }), Infinity, 'the stricter limit (2) holds for both');
    assert.equal(typeof a.tryAcquire('other.org', { maxConnections: 1, delayMs: 0 }), 'function', 'other hosts are separate');
    // The gates' channel doesn't keep a process alive; this test waits on it, so a timer does.
    const keepAlive = setTimeout(() => {}, 30_000);
    const heard = new Promise<void>((resolve) => b.onRelease(resolve));
    (r1 as () => void)();
    await heard;
    clearTimeout(keepAlive);
    assert.equal(typeof b.tryAcquire('example.org', { maxConnections: 4, delayMs: 0 }), 'function', 'a release in one frees a slot for the other');
    a.close();
    b.close();
  });

  it("takes a crawl's raised limits at once, and another crawl's stricter ones back at its next request", () => {
    const [a, b] = pair(() => 1000);
    const two = { maxConnections: 2, delayMs: 0 };
    const six = { maxConnections: 6, delayMs: 0 };
    a.tryAcquire('example.org', two);
    a.tryAcquire('example.org', two);
    assert.equal(a.tryAcquire('example.org', six), Infinity);
    a.relax('example.org', six);
    assert.equal(typeof a.tryAcquire('example.org', six), 'function', 'the raise shows at once');
    b.relax('other.org', six);
    assert.equal(b.tryAcquire('example.org', { maxConnections: 3, delayMs: 0 }), Infinity, "another crawl's limit of 3 holds again: 3 are running");
    a.close();
    b.close();
  });

  it('spaces request starts by the longer delay across crawls, then forgets an idle host', () => {
    let t = 1000;
    const [a, b] = pair(() => t);
    const r = a.tryAcquire('example.org', { maxConnections: 4, delayMs: 500 });
    assert.equal(typeof r, 'function');
    assert.equal(b.tryAcquire('example.org', { maxConnections: 4, delayMs: 100 }), 500);
    t += 200;
    assert.equal(b.tryAcquire('example.org', { maxConnections: 4, delayMs: 100 }), 300);
    (r as () => void)();
    t += 300;
    const again = b.tryAcquire('example.org', { maxConnections: 4, delayMs: 100 });
    assert.equal(typeof again, 'function');
    (again as () => void)();
    t += 500;
    // Idle past its delay: the next crawl's own (shorter) delay applies afresh.
    const next = a.tryAcquire('example.org', { maxConnections: 4, delayMs: 10 });
    assert.equal(typeof next, 'function');
    t += 10;
    assert.equal(typeof b.tryAcquire('example.org', { maxConnections: 4, delayMs: 10 }), 'function');
    a.close();
    b.close();
  });
});
