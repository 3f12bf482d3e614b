import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sortLines } from '../../../electron/engine/export/externalSort.js';

describe('sortLines', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-sort-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  // A fixed pseudo-random order, so a failure reproduces.
  function shuffled(n: number): string[] {
    const lines = Array.from({ length: n }, (_, i) => `com,example)/page/${(i * 7919) % n} 2026${String(i % 13).padStart(2, '0')} {"n":${i}}`);
    let seed = 42;
    for (let i = lines.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const j = seed % (i + 1);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
    return lines;
  }

  for (const [label, chunkBytes] of [
    ['in one chunk', 1 << 24],
    ['through many sorted runs on disk', 2_000],
  ] as const) {
    it(`sorts every line ${label} and removes its runs`, async () => {
      const dir = mkdtempSync(path.join(work, 'case-'));
      const lines = shuffled(3_000);
      const input = path.join(dir, 'in.txt');
      const output = path.join(dir, 'out.txt');
      writeFileSync(input, lines.join('\n') + '\n');
      await sortLines(input, output, { tmpDir: dir, chunkBytes });
      assert.deepEqual(readFileSync(output, 'utf8').split('\n').slice(0, -1), [...lines].sort());
      assert.deepEqual(readdirSync(dir).sort(), ['in.txt', 'out.txt']);
    });
  }

  it('stops when aborted', async () => {
    const dir = mkdtempSync(path.join(work, 'abort-'));
    const input = path.join(dir, 'in.txt');
    writeFileSync(input, shuffled(3_000).join('\n'));
    await assert.rejects(
      sortLines(input, path.join(dir, 'out.txt'), { tmpDir: dir, chunkBytes: 2_000, signal: AbortSignal.abort() }),
      (e: Error) => e.name === 'AbortError',
    );
  });
});
