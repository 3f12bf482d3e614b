import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExportProgress } from '../../../shared/metadata.js';
import { throttleProgress } from '../../../electron/engine/export/progress.js';

describe('throttleProgress', () => {
  it('passes phase changes and completion on, and drops bursts within a phase', () => {
    const seen: ExportProgress[] = [];
    const report = throttleProgress((p) => seen.push(p));
    report({ phase: 'indexing WARC', doneBytes: 0, totalBytes: 1000 });
    for (let done = 1; done < 1000; done++) report({ phase: 'indexing WARC', doneBytes: done, totalBytes: 1000 });
    report({ phase: 'indexing WARC', doneBytes: 1000, totalBytes: 1000 });
    report({ phase: 'writing', doneBytes: 0, totalBytes: 50 });
    assert.ok(seen.length < 20, `${seen.length} updates passed`);
    assert.deepEqual(seen[0], { phase: 'indexing WARC', doneBytes: 0, totalBytes: 1000 });
    assert.ok(seen.some((p) => p.phase === 'indexing WARC' && p.doneBytes === 1000));
    assert.deepEqual(seen.at(-1), { phase: 'writing', doneBytes: 0, totalBytes: 50 });
  });

  it('passes an update within a phase once 100 ms have gone by since the last, and not sooner', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const seen: number[] = [];
    const report = throttleProgress((p) => seen.push(p.doneBytes));
    const at = (done: number): void => report({ phase: 'hashing', doneBytes: done, totalBytes: 1000 });
    at(1);
    t.mock.timers.tick(99);
    at(2);
    t.mock.timers.tick(1);
    at(3);
    at(4);
    t.mock.timers.tick(150);
    at(5);
    assert.deepEqual(seen, [1, 3, 5]);
  });
});
