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

  it('is a no-op without a listener', () => {
    assert.doesNotThrow(() => throttleProgress(undefined)({ phase: 'x', doneBytes: 0, totalBytes: 0 }));
  });
});
