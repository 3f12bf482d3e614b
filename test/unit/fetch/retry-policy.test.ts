import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, MAX_RETRY_WAIT_MS, retryAfterMs, sleep } from '../../../electron/engine/fetch/retry-policy.js';
import { isFetchError } from './fixtures.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');

  it('reads delta-seconds', () => {
    assert.equal(retryAfterMs('1', now), 1000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
  });

  it('reads an HTTP-date relative to now, never negative', () => {
    assert.equal(retryAfterMs('Wed, 01 May 2024 12:00:05 GMT', now), 5000);
    assert.equal(retryAfterMs('Wed, 01 May 2024 11:00:00 GMT', now), 0);
  });

  it('caps long waits', () => {
    assert.equal(retryAfterMs('86400', now), MAX_RETRY_WAIT_MS);
    assert.equal(retryAfterMs('Thu, 02 May 2024 12:00:00 GMT', now), MAX_RETRY_WAIT_MS);
  });

  it('gives null when absent or unreadable', () => {
    assert.equal(retryAfterMs(undefined, now), null);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs('-5', now), null);
  });
});

describe('backoffMs', () => {
  it('doubles from the base, within ±25% jitter', () => {
    assert.equal(backoffMs(1, 1000, () => 0.5), 1000);
    assert.equal(backoffMs(2, 1000, () => 0.5), 2000);
    assert.equal(backoffMs(3, 1000, () => 0.5), 4000);
    assert.equal(backoffMs(1, 1000, () => 0), 750);
    assert.equal(backoffMs(1, 1000, () => 1), 1250);
  });

  it('never exceeds the cap', () => {
    assert.equal(backoffMs(20, 1000, () => 1), MAX_RETRY_WAIT_MS);
  });
});

describe('sleep', () => {
  it('resolves after the wait, not before, and then ignores the signal', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const abort = new AbortController();
    let outcome = 'pending';
    sleep(5_000, abort.signal).then(
      () => (outcome = 'resolved'),
      () => (outcome = 'rejected'),
    );
    t.mock.timers.tick(4_999);
    await Promise.resolve();
    assert.equal(outcome, 'pending');
    t.mock.timers.tick(1);
    await Promise.resolve();
    assert.equal(outcome, 'resolved');
    abort.abort();
    await Promise.resolve();
    assert.equal(outcome, 'resolved');
  });

  it('rejects with aborted as soon as the signal fires', async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 20);
    await assert.rejects(sleep(60_000, abort.signal), isFetchError('aborted'));
    assert.ok(Date.now() - started < 10_000);
  });

  it('rejects at once on an already-fired signal', async () => {
    await assert.rejects(sleep(60_000, AbortSignal.abort()), isFetchError('aborted'));
  });
});
