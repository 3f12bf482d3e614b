import assert from 'node:assert/strict';
import { it } from 'node:test';
import { measureRoundTrip, percentile } from '../../renderer/lib/roundTrip.js';

it('percentile uses the nearest rank', () => {
  const v = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(v, 50), 50);
  assert.equal(percentile(v, 99), 99);
  assert.equal(percentile([7], 99), 7);
  assert.equal(percentile([], 50), 0);
});

it('measureRoundTrip times each ping with the given clock', async () => {
  let t = 0;
  const durations = [5, 1, 3, 2, 4];
  let call = 0;
  const api = {
    'app.ping': async (a: { sentAtMs: number }) => {
      t += durations[call++] ?? 0;
      return { ok: true as const, value: a };
    },
  };
  assert.deepEqual(await measureRoundTrip(api, 5, () => t), { samples: 5, p50Ms: 3, p99Ms: 5 });
  await assert.rejects(measureRoundTrip({ 'app.ping': async () => ({ ok: false as const, error: { code: 'internal' as const, message: 'down' } }) }, 1), /down/);
});
