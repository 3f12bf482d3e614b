/**
 * The import's window of records in flight: several at once, within its bounds, records of one URL
 * one after the other, and a failure thrown rather than lost.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordWindow } from '../../../electron/engine/import/recordWindow.js';

/** A task that runs until released, noting when it starts and ends. */
function gate(log: string[], name: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await released;
      log.push(`end ${name}`);
    },
    release: () => release(),
  };
}

describe('import: the window of records in flight', () => {
  it('runs tasks of different URLs at once, up to its record bound', async () => {
    const log: string[] = [];
    const w = new RecordWindow(2, 1_000);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    await w.add('http://x/a', 1, a!.task);
    await w.add('http://x/b', 1, b!.task);
    const third = w.add('http://x/c', 1, c!.task);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start a', 'start b'], 'the third waits for room');
    a!.release();
    await third;
    assert.deepEqual(log, ['start a', 'start b', 'end a', 'start c']);
    b!.release();
    c!.release();
    await w.drain();
    assert.equal(log.length, 6);
  });

  it('takes a second record of one URL only once the first is done', async () => {
    const log: string[] = [];
    const w = new RecordWindow(8, 1_000);
    const [first, other, again] = ['first', 'other', 'again'].map((n) => gate(log, n));
    await w.add('http://x/same', 1, first!.task);
    await w.add('http://x/other', 1, other!.task);
    const second = w.add('http://x/same', 1, again!.task);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start first', 'start other']);
    other!.release();
    await new Promise((r) => setImmediate(r));
    assert.ok(!log.includes('start again'), 'a task of another URL ending does not let it in');
    first!.release();
    await second;
    assert.deepEqual(log.slice(-2), ['end first', 'start again']);
    again!.release();
    await w.drain();
  });

  it('bounds the bytes in flight, but takes a record bigger than the bound alone', async () => {
    const log: string[] = [];
    const w = new RecordWindow(8, 100);
    const [small, big] = ['small', 'big'].map((n) => gate(log, n));
    await w.add('http://x/small', 60, small!.task);
    const bigAdded = w.add('http://x/big', 500, big!.task);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start small'], 'the big one waits for the window to empty');
    small!.release();
    await bigAdded;
    assert.deepEqual(log, ['start small', 'end small', 'start big']);
    big!.release();
    await w.drain();
  });

  it("throws a task's failure from drain, after every task has ended", async () => {
    const log: string[] = [];
    const w = new RecordWindow(4, 1_000);
    const slow = gate(log, 'slow');
    await w.add('http://x/slow', 1, slow.task);
    await w.add('http://x/bad', 1, () => Promise.reject(new Error('cannot save')));
    setImmediate(() => slow.release());
    await assert.rejects(w.drain(), /cannot save/);
    assert.deepEqual(log, ['start slow', 'end slow']);
  });
});
