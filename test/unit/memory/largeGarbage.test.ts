import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { beforeLargeBuffer, COLLECT_AFTER_BYTES } from '../../../electron/engine/memory/largeGarbage.js';

/** A large buffer nothing holds any more, seen through a WeakRef (made in a turn of its own: a WeakRef's target lives to the end of the turn it was made in). */
function dropped(): WeakRef<Buffer> {
  return new WeakRef(Buffer.alloc(2 * 1024 * 1024, 1));
}

describe('beforeLargeBuffer', () => {
  it('collects once large buffers add up to its threshold, freeing those let go of, and not before', async () => {
    // Past the threshold, then a collection for nothing more: the count starts afresh.
    beforeLargeBuffer(COLLECT_AFTER_BYTES);
    assert.equal(beforeLargeBuffer(0), true);
    const early = dropped();
    await nextTurn();
    assert.equal(beforeLargeBuffer(1024 * 1024), false, 'under the threshold: no collection');
    const ref = dropped();
    await nextTurn();
    assert.equal(beforeLargeBuffer(COLLECT_AFTER_BYTES), true, 'past it: a collection');
    assert.equal(ref.deref(), undefined, 'the buffer let go of is freed');
    assert.equal(early.deref(), undefined);
  });
});
