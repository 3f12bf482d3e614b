import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGatesBuffer, SharedHostGates } from '../../../electron/engine/politeness/sharedHostGates.js';

describe('host gates shared across threads: releasing', () => {
  it('frees one slot only when a release is called twice', () => {
    const gates = new SharedHostGates(createHostGatesBuffer(), () => 1000);
    try {
      const limits = { maxConnections: 2, delayMs: 0 };
      const first = gates.tryAcquire('example.org', limits) as () => void;
      assert.equal(typeof gates.tryAcquire('example.org', limits), 'function');
      assert.equal(gates.tryAcquire('example.org', limits), Infinity, 'both slots taken');
      first();
      first();
      assert.equal(typeof gates.tryAcquire('example.org', limits), 'function', 'the one freed slot');
      assert.equal(gates.tryAcquire('example.org', limits), Infinity, 'the second release freed nothing');
    } finally {
      gates.close();
    }
  });
});
