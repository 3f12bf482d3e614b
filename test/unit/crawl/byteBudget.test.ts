import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteBudget } from '../../../electron/engine/crawl/byteBudget.js';

/** Lets every settled promise's callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ByteBudget', () => {
  it('lets tasks in while they fit and holds the rest until shares come back, in order', async () => {
    const budget = new ByteBudget(100);
    const started: string[] = [];
    const run = (name: string, bytes: number): Promise<() => void> =>
      budget.take(bytes).then((give) => {
        started.push(name);
        return give;
      });
    const a = run('a', 60);
    const b = run('b', 30);
    const c = run('c', 50);
    const d = run('d', 5);
    await settle();
    assert.deepEqual(started, ['a', 'b'], 'c does not fit, and d waits behind it');
    assert.equal(budget.free, 10);
    (await a)();
    await settle();
    assert.deepEqual(started, ['a', 'b', 'c', 'd']);
    assert.equal(budget.free, 15);
    const giveB = await b;
    giveB();
    giveB();
    assert.equal(budget.free, 45, 'a share is given back once');
    (await c)();
    (await d)();
    assert.equal(budget.free, 100);
  });

  it('runs a task larger than the budget alone', async () => {
    const budget = new ByteBudget(100);
    const small = await budget.take(10);
    let bigStarted = false;
    const big = budget.take(1_000).then((give) => {
      bigStarted = true;
      return give;
    });
    await settle();
    assert.equal(bigStarted, false);
    small();
    const giveBig = await big;
    assert.equal(budget.free, 0);
    giveBig();
    assert.equal(budget.free, 100);
  });
});
