import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BodyShare } from '../../../electron/engine/crawl/bodyShare.js';
import { ByteBudget } from '../../../electron/engine/crawl/byteBudget.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('BodyShare', () => {
  it('holds one share per URL until released; an unknown size takes the whole budget', async () => {
    const budget = new ByteBudget(100);
    const a = new BodyShare(budget);
    await a.room(30);
    await a.room(20);
    assert.equal(budget.free, 70, 'asking again for less keeps the share');
    const b = new BodyShare(budget);
    let bIn = false;
    void b.room(null).then(() => (bIn = true));
    await settle();
    assert.equal(bIn, false, 'an unknown size waits for the whole budget');
    a.release();
    await settle();
    assert.equal(bIn, true);
    assert.equal(budget.free, 0);
    b.release();
    b.release();
    assert.equal(budget.free, 100, 'released once');
  });

  it('a body that grows gives its share back first, so two growing bodies never wait on each other', async () => {
    const budget = new ByteBudget(100);
    const a = new BodyShare(budget);
    const b = new BodyShare(budget);
    await a.room(40);
    await b.room(40);
    const aGrew = a.room(null);
    await settle();
    // a gave its 40 back and waits for all 100; b's release lets it in.
    assert.equal(budget.free, 60);
    b.release();
    await aGrew;
    assert.equal(budget.free, 0);
    a.release();
    assert.equal(budget.free, 100);
  });
});
