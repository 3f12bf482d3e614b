import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchSize, FetchTimes } from '../../../electron/engine/cluster/batchSize.js';

const sizing = { targetLeaseMs: 10_000, connections: 2, delayMs: 0, min: 1, max: 1_000 };

describe('cluster batch size', () => {
  it('is target lease time x connections / mean fetch time, clamped', () => {
    assert.equal(batchSize(50, sizing), 400);
    assert.equal(batchSize(250, sizing), 80);
    assert.equal(batchSize(1, sizing), 1_000);
    assert.equal(batchSize(60_000, sizing), 1);
  });

  it('starts small before any fetch time is known', () => {
    assert.equal(batchSize(null, sizing), 4);
    // ... and within the target when the delay alone would make 4 URLs outlast it.
    assert.equal(batchSize(null, { ...sizing, delayMs: 4_000 }), 2);
  });

  it('holds the target lease time when the delay between requests sets the pace', () => {
    // 50 ms fetches on 2 connections would do 400 URLs in 10 s; a 100 ms delay allows 100.
    assert.equal(batchSize(50, { ...sizing, delayMs: 100 }), 100);
    assert.equal(batchSize(50, { ...sizing, delayMs: 2_000 }), 5);
    // A delay shorter than the fetches' own pace changes nothing.
    assert.equal(batchSize(250, { ...sizing, delayMs: 100 }), 80);
    // A robots.txt Crawl-delay longer than the job's delay sets it.
    assert.equal(batchSize(50, { ...sizing, delayMs: 100 }, 1_000), 10);
  });

  it('follows the adaptive delay: twice the response time, 250 ms at least', () => {
    const adaptive = { ...sizing, delayMs: null };
    assert.equal(batchSize(50, adaptive), 40);
    assert.equal(batchSize(500, adaptive), 10);
  });

  it('follows the recent fetches, forgetting old ones', () => {
    const t = new FetchTimes();
    assert.equal(t.mean(), null);
    for (let i = 0; i < 64; i++) t.record(1_000);
    for (let i = 0; i < 64; i++) t.record(50);
    assert.equal(t.mean(), 50);
  });
});
