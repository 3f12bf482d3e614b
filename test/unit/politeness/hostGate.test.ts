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

  it('applies the stricter limits of two crawls sharing a site', () => {
    const gates = new HostGateRegistry(() => 0);
    const polite = { maxConnections: 1, delayMs: 0 };
    const eager = { maxConnections: 8, delayMs: 0 };
    assert.equal(typeof gates.tryAcquire('http://a', eager), 'function');
    assert.equal(gates.tryAcquire('http://a', polite), Infinity, 'the polite crawl sees the site busy');
    assert.equal(gates.activeFor('http://a'), 1);
  });

  it('releasing twice frees one slot only', () => {
    const gates = new HostGateRegistry(() => 0);
    const limits = { maxConnections: 2, delayMs: 0 };
    const a = gates.tryAcquire('http://a', limits) as () => void;
    gates.tryAcquire('http://a', limits);
    a();
    a();
    assert.equal(gates.activeFor('http://a'), 1);
  });
});
