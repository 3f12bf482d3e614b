import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SiteChoice } from '../../../electron/engine/cluster/siteChoice.js';

/** Every site `choice` offers in one round, as the worker's loop asks (each one tried once). */
function round(choice: SiteChoice, mine: string[], strays: string[], running: Map<string, unknown>, slots: number): string[] {
  const tried = new Set<string>();
  const taken: string[] = [];
  for (let s = choice.next(mine, strays, running, tried); s !== undefined && taken.length < slots; s = choice.next(mine, strays, running, tried)) {
    tried.add(s);
    taken.push(s);
  }
  return taken;
}

describe('a cluster worker’s choice of sites', () => {
  it('goes on with the sites it began (strays included) before new sites of its own, and those before strays', () => {
    const c = new SiteChoice();
    c.began('b');
    c.began('stray-x');
    const running = new Map<string, unknown>([['b', null]]);
    assert.deepEqual(round(c, ['a', 'b', 'd'], ['stray-x', 'stray-y'], running, 2), ['stray-x', 'a']);
    running.delete('b');
    assert.deepEqual(round(c, ['a', 'b', 'd'], ['stray-y'], running, 5), ['b', 'stray-x', 'a', 'd', 'stray-y']);
  });

  it('offers a begun site whose batch ended while the round was leasing, ahead of new sites', () => {
    const c = new SiteChoice();
    c.began('b');
    const running = new Map<string, unknown>([['b', null]]);
    const tried = new Set<string>();
    assert.equal(c.next(['a', 'd'], [], running, tried), 'a');
    tried.add('a');
    running.delete('b');
    assert.equal(c.next(['a', 'd'], [], running, tried), 'b');
  });

  it('forgets a begun site only when a look at the queue taken after its last commit shows nothing due', () => {
    const c = new SiteChoice();
    for (const s of ['done', 'in-flight', 'ended-during-look', 'due']) c.began(s);
    c.settle(['due'], new Set(['in-flight', 'ended-during-look']), new Map([['in-flight', null]]));
    assert.deepEqual(round(c, [], [], new Map(), 10), ['in-flight', 'ended-during-look', 'due']);
  });
});
