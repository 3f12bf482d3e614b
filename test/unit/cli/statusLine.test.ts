import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { formatCount } from '../../../electron/cli/countProgress.js';
import { StatusLine } from '../../../electron/cli/statusLine.js';

/** A stand-in for stderr that keeps what is written. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, columns: 40, text: '', write: (chunk: string) => ((s.text += chunk), true) };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

describe('CLI status line', () => {
  beforeEach(() => mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-29T10:00:00Z') }));
  afterEach(() => mock.timers.reset());

  it('stays silent for the first second, then redraws a terminal line in place at most every 200 ms', () => {
    const out = stream(true);
    const line = new StatusLine(out, false);
    line.draw(() => 'early');
    assert.equal(out.text, '', 'nothing in the first second');
    mock.timers.tick(1_000);
    line.draw((ms) => `at ${ms}`);
    mock.timers.tick(100);
    line.draw(() => 'too soon');
    mock.timers.tick(100);
    line.draw(() => 'x'.repeat(60));
    assert.equal(out.text, `\rat 1000\x1b[K\r${'x'.repeat(39)}\x1b[K`, 'cut to the terminal width');
    line.done();
    assert.ok(out.text.endsWith('\r\x1b[K'), 'cleared at the end');
  });

  it('writes a new line every 5 s to a file, the last one whatever the interval, and nothing when quiet', () => {
    const out = stream(false);
    const line = new StatusLine(out, false);
    mock.timers.tick(1_000);
    line.draw(() => 'one');
    mock.timers.tick(1_000);
    line.draw(() => 'two');
    line.draw(() => 'last', true);
    mock.timers.tick(5_000);
    line.draw(() => 'three');
    line.done();
    assert.equal(out.text, 'one\nlast\nthree\n');
    const quiet = stream(false);
    const hushed = new StatusLine(quiet, true);
    mock.timers.tick(10_000);
    hushed.draw(() => 'never', true);
    assert.equal(quiet.text, '');
  });

  it('counts with a bar and the time left in minutes', () => {
    assert.equal(formatCount(250, 1_000, 'pages analysed', 60_000), '[######..................] 25% pages analysed 250/1,000, about 3 min left');
    assert.equal(formatCount(1_000, 1_000, 'pages analysed', 60_000), '[########################] 100% pages analysed 1,000/1,000');
  });
});
