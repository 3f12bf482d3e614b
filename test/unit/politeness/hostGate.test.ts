import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostGateRegistry } from '../../../electron/engine/politeness/hostGate.js';

describe('HostGateRegistry', () => {
  it('admits at most maxConnections requests to a site at once', () => {
    const gates = new HostGateRegistry(() => 0);
    const limits = { maxConnections: 2, delayMs: 0 };
    const a = gates.tryAcquire('http://a', limits);
    const b = gates.tryAcquire('http://a', limits);
    assert.equal(typeof a, 'function');
    assert.equal(typeof b, 'function');
    assert.equal(gates.tryAcquire('http://a', limits), Infinity);
    assert.equal(typeof gates.tryAcquire('http://b', limits), 'function', 'another site is independent');
    (a as () => void)();
    assert.equal(typeof gates.tryAcquire('http://a', limits), 'function');
  });

  it('keeps the minimum delay between request starts and says how long to wait', () => {
    let now = 1_000;
    const gates = new HostGateRegistry(() => now);
    const limits = { maxConnections: 4, delayMs: 500 };
    const first = gates.tryAcquire('http://a', limits);
    assert.equal(typeof first, 'function');
    now += 200;
    assert.equal(gates.tryAcquire('http://a', limits), 300);
    now += 300;
    assert.equal(typeof gates.tryAcquire('http://a', limits), 'function');
  });

  it('applies the stricter limits of two crawls sharing a host to both', () => {
    let now = 0;
    const gates = new HostGateRegistry(() => now);
    const polite = { maxConnections: 1, delayMs: 100 };
    const eager = { maxConnections: 8, delayMs: 0 };
    const first = gates.tryAcquire('a.test', eager) as () => void;
    assert.equal(gates.tryAcquire('a.test', polite), Infinity, 'the polite crawl sees the host busy');
    assert.equal(gates.tryAcquire('a.test', eager), Infinity, 'the eager crawl now keeps to one connection');
    first();
    assert.equal(gates.tryAcquire('a.test', eager), 100, 'and to the longer delay');
    now = 100;
    assert.equal(typeof gates.tryAcquire('a.test', eager), 'function');
    assert.equal(gates.inFlight('a.test'), 1);
  });

  it("takes a crawl's raised limits at once while the host is busy", () => {
    const gates = new HostGateRegistry(() => 0);
    const two = { maxConnections: 2, delayMs: 0 };
    const six = { maxConnections: 6, delayMs: 0 };
    gates.tryAcquire('a.test', two);
    gates.tryAcquire('a.test', two);
    assert.equal(gates.tryAcquire('a.test', six), Infinity, 'busy: the strictest limit so far holds');
    gates.relax('a.test', six);
    for (let i = 0; i < 4; i++) assert.equal(typeof gates.tryAcquire('a.test', six), 'function');
    assert.equal(gates.tryAcquire('a.test', six), Infinity, 'six at once, no more');
  });

  it('tells listeners when a slot is released', async () => {
    const gates = new HostGateRegistry(() => 0);
    let heard = 0;
    const unsubscribe = gates.onRelease(() => heard++);
    const release = gates.tryAcquire('a.test', { maxConnections: 1, delayMs: 0 }) as () => void;
    release();
    await Promise.resolve();
    assert.equal(heard, 1);
    unsubscribe();
    (gates.tryAcquire('a.test', { maxConnections: 1, delayMs: 0 }) as () => void)();
    await Promise.resolve();
    assert.equal(heard, 1);
  });

  it('releasing twice frees one slot only', () => {
    const gates = new HostGateRegistry(() => 0);
    const limits = { maxConnections: 2, delayMs: 0 };
    const a = gates.tryAcquire('http://a', limits) as () => void;
    gates.tryAcquire('http://a', limits);
    a();
    a();
    assert.equal(gates.inFlight('http://a'), 1);
  });
});
