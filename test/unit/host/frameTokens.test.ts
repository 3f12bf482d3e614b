import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameTokens } from '../../../electron/host/frameTokens.js';

describe('frame tokens', () => {
  it('name the path they were issued for, once, to their own job only, and the oldest are forgotten', () => {
    const tokens = new FrameTokens();
    const a = tokens.issue('j1', 'site/a.html');
    const b = tokens.issue('j1', 'site/b.html');
    assert.notEqual(a, b);
    assert.equal(tokens.redeem('j2', a), null);
    assert.equal(tokens.redeem('j1', a), 'site/a.html');
    assert.equal(tokens.redeem('j1', a), null);
    assert.equal(tokens.redeem('j1', 'made-up'), null);
    for (let i = 0; i < 1024; i++) tokens.issue('j1', `p${i}.html`);
    assert.equal(tokens.redeem('j1', b), null, 'forgotten after 1024 newer ones');
  });
});
