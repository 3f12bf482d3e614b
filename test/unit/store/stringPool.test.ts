import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

  it('passes null through', () => {
    const pool = new StringPool(4);
    assert.equal(pool.internOrNull(null), null);
    assert.equal(pool.internOrNull('html'), 'html');
  });
});
