import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchSize, FetchTimes } from '../../../electron/engine/cluster/batchSize.js';

const sizing = { targetLeaseMs: 10_000, connections: 2, min: 1, max: 1_000 };

describe('cluster batch size', () => {
  it('is target lease time x connections / mean fetch time, clamped', () => {
    assert.equal(batchSize(50, sizing), 400);
    assert.equal(batchSize(250, sizing), 80);
    assert.equal(batchSize(1, sizing), 1_000);
    assert.equal(batchSize(60_000, sizing), 1);
  });

  it('starts small before any fetch time is known', () => {
    assert.equal(batchSize(null, sizing), 4);
  });

  it('follows the recent fetches, forgetting old ones', () => {
    const t = new FetchTimes();
    assert.equal(t.mean(), null);
    for (let i = 0; i < 64; i++) t.record(1_000);
    for (let i = 0; i < 64; i++) t.record(50);
    assert.equal(t.mean(), 50);
  });
});
