import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FetchError } from '../../../electron/engine/fetch/errors.js';
import { attemptsNote, retryWaitMs } from '../../../electron/engine/fetch/retry-policy.js';

const answer = (status: number, headers: Record<string, string> = {}) => ({ status, headers });

describe('retryWaitMs: what a crawl tries again', () => {
  it('retries 408, 429 and 500/502/503/504 with a doubling back-off, and honours Retry-After', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      const first = retryWaitMs(answer(status), 1, 1000)!;
      const second = retryWaitMs(answer(status), 2, 1000)!;
      assert.ok(first >= 750 && first <= 1250, `${status}: ${first}`);
      assert.ok(second >= 1500 && second <= 2500, `${status}: ${second}`);
    }
    assert.equal(retryWaitMs(answer(503, { 'retry-after': '7' }), 1, 1000), 7000);
  });

  it('takes other answers as final', () => {
    for (const status of [200, 301, 304, 404, 410, 501]) assert.equal(retryWaitMs(answer(status), 1, 1000), null, String(status));
  });

  it('retries transient errors only', () => {
    assert.notEqual(retryWaitMs(new FetchError('timeout-headers', 'slow', true), 1, 1000), null);
    assert.equal(retryWaitMs(new FetchError('protocol', 'Content-Length mismatch'), 1, 1000), null);
    assert.equal(retryWaitMs(new FetchError('network', 'connect ECONNREFUSED'), 1, 1000), null);
  });

  it('notes the attempts only when there was more than one', () => {
    assert.equal(attemptsNote(1), '');
    assert.equal(attemptsNote(3), ' (gave up after 3 attempts)');
  });
});
