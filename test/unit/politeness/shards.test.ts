import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workerForSite } from '../../../electron/engine/politeness/shards.js';

const sites = Array.from({ length: 2000 }, (_, i) => `https://site-${i}.example.org`);

describe('workerForSite (rendezvous hashing)', () => {
  it('is stable and spreads sites over workers', () => {
    const workers = ['w0', 'w1', 'w2', 'w3'];
    const counts = new Map<string, number>();
    for (const s of sites) {
      const w = workerForSite(s, workers);
      assert.equal(workerForSite(s, [...workers].reverse()), w, 'order of workers does not matter');
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    for (const w of workers) assert.ok((counts.get(w) ?? 0) > 350, `${w} got ${counts.get(w)} of 2000`);
  });

  it('moves only the sites of the removed worker when one leaves', () => {
    const before = ['w0', 'w1', 'w2', 'w3', 'w4'];
    const after = before.filter((w) => w !== 'w2');
    for (const s of sites) {
      const was = workerForSite(s, before);
      if (was !== 'w2') assert.equal(workerForSite(s, after), was);
    }
  });

  it('moves about 1/N of the sites when a worker joins', () => {
    const before = ['w0', 'w1', 'w2', 'w3'];
    const after = [...before, 'w4'];
    const moved = sites.filter((s) => workerForSite(s, before) !== workerForSite(s, after));
    assert.ok(moved.every((s) => workerForSite(s, after) === 'w4'), 'sites only move to the new worker');
    assert.ok(moved.length > 250 && moved.length < 550, `${moved.length} of 2000 moved`);
  });
});
