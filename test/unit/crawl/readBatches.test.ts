import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readBatches, type IndexableRow } from '../../../electron/engine/crawl/textIndexing.js';

const MB = 1024 * 1024;
const row = (id: number, bytes: number | null): IndexableRow => ({ id, url: `http://x.org/${id}`, content_type: 'text/html', local_path: `x.org/${id}.html`, fetched_at: null, bytes });
const batches = (page: IndexableRow[], wanted: (r: IndexableRow) => boolean = () => true) =>
  [...readBatches(page, wanted, { rows: 3, bytes: 16 * MB })].map((b) => [b.rows.map((r) => r.id), b.through]);

describe('readBatches: the documents the search index lacks, read a few at a time', () => {
  it('at most so many rows at once', () => {
    const page = [1, 2, 3, 4, 5, 6, 7].map((id) => row(id, 1000));
    assert.deepEqual(batches(page), [
      [[1, 2, 3], 2],
      [[4, 5, 6], 5],
      [[7], 6],
    ]);
  });

  it('at most so many bytes at once, a large document alone, and a batch always takes its first', () => {
    const page = [row(1, 6 * MB), row(2, 6 * MB), row(3, 6 * MB), row(4, 50 * MB), row(5, null), row(6, 1)];
    assert.deepEqual(batches(page), [
      [[1, 2], 1],
      [[3], 2],
      [[4], 3],
      [[5, 6], 5],
    ]);
  });

  it('leaves out the rows not wanted, and still reports the whole page covered', () => {
    const page = [1, 2, 3, 4, 5].map((id) => row(id, 1000));
    assert.deepEqual(batches(page, (r) => r.id % 2 === 0), [[[2, 4], 4]]);
    assert.deepEqual(batches(page, () => false), [[[], 4]]);
  });
});
