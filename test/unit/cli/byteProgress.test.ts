import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timeLeft } from '../../../electron/cli/byteProgress.js';

describe('CLI byte progress: time left', () => {
  it('is the bytes left at the rate so far', () => {
    assert.equal(timeLeft(60_000, 250, 1_000), ', about 3 min left');
    assert.equal(timeLeft(10_000, 500, 1_000), ', about 10 s left');
  });

  it('says nothing while too little is done to tell, or when all is', () => {
    assert.equal(timeLeft(1_000, 1, 1_000), '');
    assert.equal(timeLeft(60_000, 1_000, 1_000), '');
    assert.equal(timeLeft(60_000, 0, 1_000), '');
    assert.equal(timeLeft(6_000, 10, 1_000), ', about 9 min 54 s left', 'after a few seconds, however little is done');
  });
});
