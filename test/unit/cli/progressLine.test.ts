import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countsFromStates, type ProgressEvent } from '../../../shared/crawl.js';
import { format } from '../../../electron/cli/progressLine.js';

const event = (over: Partial<ProgressEvent> = {}): ProgressEvent => ({
  type: 'progress',
  counts: {
    ...countsFromStates({ queued: 4_321, archived: 12_345, redirect: 67, 'http-error': 89, failed: 12, skipped: 3_456 }, {}, 123_456_789),
    inFlight: 8,
  },
  urlsPerSec: 123.4,
  kbPerSec: 2_048,
  elapsedMs: 754_000,
  current: [],
  ...over,
});

describe('CLI progress line', () => {
  it('fits 80 columns and keeps the percentage, the rate, the ETA and the elapsed time', () => {
    const line = format(event(), 80);
    assert.ok(line.length <= 79, `${line.length} columns: ${line}`);
    assert.match(line, /74% of 16,842 known/);
    assert.match(line, /123 URL\/s/);
    assert.match(line, /ETA \d+ (s|min)/);
    assert.match(line, /12:34/);
  });

  it('shows every figure, with a bar, when there is room', () => {
    const line = format(event(), 200);
    for (const part of ['12,345 archived', '12 failed', '89 HTTP errors', '3,456 skipped', '123 MB', '2.1 MB/s', '12:34']) assert.ok(line.includes(part), `${part} missing: ${line}`);
    assert.match(line, /^\[#+\.+\] /);
  });

  it('drops the least important figures first as the terminal narrows', () => {
    const at = (cols: number) => format(event(), cols);
    for (const cols of [60, 70, 80, 100, 120]) assert.ok(at(cols).length <= cols - 1, `${cols}: ${at(cols)}`);
    assert.ok(!at(80).includes('skipped'));
    assert.ok(at(60).includes('URL/s') && at(60).includes('12:34'), at(60));
  });
});
