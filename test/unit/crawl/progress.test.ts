import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProgressMeter } from '../../../electron/engine/crawl/progress.js';

const empty = { queued: 0, archived: 0, redirect: 0, 'http-error': 0, failed: 0, skipped: 0 };

describe('ProgressMeter', () => {
  it('starts from the catalogue counts of a resumed crawl', () => {
    const m = new ProgressMeter({ ...empty, queued: 5, archived: 10, skipped: 2 }, { scope: 2 }, 1000);
    const e = m.snapshot(0, [], 0);
    assert.equal(e.counts.discovered, 17);
    assert.equal(e.counts.queued, 5);
    assert.equal(e.counts.archived, 10);
    assert.deepEqual(e.counts.skippedByReason, { scope: 2 });
    assert.equal(e.counts.bytes, 1000);
  });

  it('moves URLs from queued to their outcome and counts skip reasons', () => {
    const m = new ProgressMeter(empty, {}, 0);
    m.discovered('queued', null);
    m.discovered('queued', null);
    m.discovered('skipped', 'trap:url-length');
    m.finished('archived', 2048);
    m.finished('skipped', 0, 'robots');
    const c = m.snapshot(0, [], 0).counts;
    assert.equal(c.queued, 0);
    assert.equal(c.archived, 1);
    assert.equal(c.skipped, 2);
    assert.deepEqual(c.skippedByReason, { 'trap:url-length': 1, robots: 1 });
    assert.equal(c.bytes, 2048);
  });

  it('reports URL and byte rates over a moving window', () => {
    let now = 0;
    const m = new ProgressMeter({ ...empty, queued: 100 }, {}, 0, () => now);
    m.snapshot(0, [], 0);
    for (let i = 0; i < 10; i++) m.finished('archived', 1024);
    now = 2000;
    const e = m.snapshot(2000, ['http://a/x'], 1);
    assert.equal(e.urlsPerSec, 5);
    assert.equal(e.kbPerSec, 5);
    assert.deepEqual(e.current, ['http://a/x']);
    now = 10_000;
    const later = m.snapshot(10_000, [], 0);
    assert.equal(later.urlsPerSec, 0, 'old samples leave the window');
  });
});
