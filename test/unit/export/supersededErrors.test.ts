import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getSurt } from 'warcio';
import { dropSupersededErrors } from '../../../electron/engine/export/supersededErrors.js';

const line = (url: string, ts: string, status: number, extra: Record<string, string> = {}) =>
  `${getSurt(url)} ${ts} ${JSON.stringify({ url, status: String(status), ...extra })}`;

describe('dropSupersededErrors', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'harvest-superseded-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Capture 1 starts 2026-01-01, capture 2 on 2026-02-01. */
  async function filter(lines: string[]): Promise<{ kept: string[]; dropped: number }> {
    const input = path.join(dir, 'in.cdx');
    const output = path.join(dir, 'out.cdx');
    writeFileSync(input, [...lines].sort().join('\n') + '\n');
    const dropped = await dropSupersededErrors(input, output, ['20260201000000', '20260101000000']);
    return { kept: readFileSync(output, 'utf8').split('\n').filter(Boolean), dropped };
  }

  it('leaves out an error a later success of its URL in the same capture answers, and keeps the success', async () => {
    const failed = line('http://a.test/late.png', '20260101100001', 404);
    const patched = line('http://a.test/late.png', '20260101100500', 200);
    const other = line('http://a.test/other.png', '20260101100002', 200);
    const { kept, dropped } = await filter([failed, patched, other]);
    assert.deepEqual(kept, [patched, other].sort());
    assert.equal(dropped, 1);
  });

  it('keeps an error answered only in a later capture, a success followed by an error, and errors alone', async () => {
    const lines = [
      // Capture 1 had only the error; capture 2 the success: each capture's replay shows its own.
      line('http://a.test/moved.png', '20260115000000', 500),
      line('http://a.test/moved.png', '20260202000000', 200),
      // The error came last: the site broke.
      line('http://a.test/broke.png', '20260101100000', 200),
      line('http://a.test/broke.png', '20260101100100', 503),
      // Two errors: nothing answers them.
      line('http://a.test/gone.png', '20260101100000', 404),
      line('http://a.test/gone.png', '20260101100100', 410),
    ];
    const { kept, dropped } = await filter(lines);
    assert.deepEqual(kept, [...lines].sort());
    assert.equal(dropped, 0);
  });

  it('compares only lines of the same URL and method', async () => {
    const lines = [
      // Same SURT key, other scheme.
      line('http://a.test/x.png', '20260101100000', 404),
      line('https://a.test/x.png', '20260101100100', 200),
      // A POST's success does not answer a GET.
      line('http://a.test/api', '20260101100000', 404),
      line('http://a.test/api', '20260101100100', 200, { method: 'POST' }),
    ];
    const { kept } = await filter(lines);
    assert.equal(kept.length, 4, kept.join('\n'));
  });
});
