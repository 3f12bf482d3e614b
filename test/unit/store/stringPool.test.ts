import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Heap measurements below need a full collection on demand.
setFlagsFromString('--expose-gc');
import { StringPool } from '../../../electron/engine/store/stringPool.js';

describe('StringPool', () => {
  it('returns each value unchanged, before and after it is full', () => {
    const pool = new StringPool(2);
    const values = ['text/html', 'queued', 'text/html', 'image/png', 'queued', 'image/png', 'aaa'];
    assert.deepEqual(
      values.map((v) => pool.intern(v)),
      values,
    );
  });

  it('keeps one copy of a value met many times, and none beyond its capacity', () => {
    // Strings have no identity to compare in JavaScript, so sharing shows in the heap: 20,000 fresh
    // copies of a 4 KB value held through the pool cost one copy; held as given, 80 MB.
    const gc = runInNewContext('gc') as () => void;
    const bytes = Buffer.alloc(4096, 'text/html; charset=utf-8 ');
    const held = (pool: StringPool | null): number => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const kept: string[] = [];
      for (let i = 0; i < 20_000; i++) {
        const copy = bytes.toString('latin1'); // a new string each time, as SQLite hands them out
        kept.push(pool === null ? copy : pool.intern(copy));
      }
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      assert.equal(kept.length, 20_000);
      return grown;
    };
    const MB = 1024 * 1024;
    assert.ok(held(null) > 40 * MB, 'the measure sees copies');
    assert.ok(held(new StringPool(16)) < 8 * MB, 'one shared copy');
    const full = new StringPool(1);
    full.intern('something else');
    assert.ok(held(full) > 40 * MB, 'past capacity, values are returned as they are');
  });

  it('passes null through', () => {
    const pool = new StringPool(4);
    assert.equal(pool.internOrNull(null), null);
    assert.equal(pool.internOrNull('html'), 'html');
  });
});
