import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DocumentPool } from '../../electron/engine/crawl/documentPool.js';
import { indexMissing } from '../../electron/engine/crawl/textIndexing.js';
import { Archive, CATALOGUE_FILE } from '../../electron/engine/store/archive.js';
import { TextIndex } from '../../electron/engine/store/textIndex.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

function indexedIds(archiveDir: string): number[] {
  const db = new Database(TextIndex.fileIn(archiveDir), { readonly: true });
  try {
    return db.prepare('SELECT url_id FROM text_docs WHERE capture = 1 ORDER BY url_id').pluck().all() as number[];
  } finally {
    db.close();
  }
}

/**
 * A crawl that completes indexes the documents a kill kept out of its search index. The catalogue
 * is compared with the index a page of rows at a time; here pages of a few rows, so the documents
 * missing fall in many pages and at their edges.
 */
describe('indexing what the search index lacks', () => {
  let work: string;
  let site: BenchSite;
  let archiveDir: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-index-missing-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archiveDir = path.join(work, 'archive');
    const r = await runHarvest(['crawl', `${site.origin}/`, '--out', archiveDir, '--quiet', '--delay-ms', '0']);
    assert.equal(r.status, 0, r.stderr);
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('adds exactly the documents missing, across pages of the catalogue, and reports every candidate checked', async () => {
    const complete = indexedIds(archiveDir);
    assert.ok(complete.length > 100, `${complete.length} documents indexed by the crawl`);
    // Every third document, the first and the last: as if a kill had kept them out.
    const dropped = complete.filter((id, i) => i % 3 === 0 || i === complete.length - 1);
    const db = new Database(TextIndex.fileIn(archiveDir));
    const drop = db.prepare('DELETE FROM text_docs WHERE capture = 1 AND url_id = ?');
    for (const id of dropped) drop.run(id);
    db.close();
    assert.equal(indexedIds(archiveDir).length, complete.length - dropped.length);
    // One more, recorded as a page over the parser's 8 MiB: saved unparsed, it has no text to
    // read, and is not read back (a crawl's end read its 50 MB gzip bombs again, eight at once).
    const tooLarge = complete.find((id) => !dropped.includes(id))!;
    const catalogue = new Database(path.join(archiveDir, CATALOGUE_FILE));
    catalogue.prepare('UPDATE urls SET bytes = ? WHERE id = ?').run(9 * 1024 * 1024, tooLarge);
    catalogue.close();
    const idx = new Database(TextIndex.fileIn(archiveDir));
    idx.prepare('DELETE FROM text_docs WHERE capture = 1 AND url_id = ?').run(tooLarge);
    idx.close();

    const archive = Archive.open(archiveDir);
    const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
    const index = TextIndex.openWritable(TextIndex.fileIn(archiveDir));
    const progress: [number, number][] = [];
    try {
      assert.equal(await indexMissing(archive, index, pool, (done, total) => progress.push([done, total]), undefined, 7), dropped.length);
      assert.equal(await indexMissing(archive, index, pool, undefined, undefined, 7), 0, 'nothing is missing the second time');
    } finally {
      index.close();
      await pool.close();
      archive.close();
    }
    assert.deepEqual(indexedIds(archiveDir), complete.filter((id) => id !== tooLarge));
    const total = progress[0]![1];
    assert.ok(total >= complete.length, `${total} candidates for ${complete.length} documents`);
    assert.deepEqual(progress.at(-1), [total, total]);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]![0] >= progress[i - 1]![0], 'progress only goes forward');
  });
});
