/**
 * A damaged catalogue page is reported when the archive is opened, naming the file, by every
 * command that opens it: never a stack trace from whichever query first reads the page.
 */
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Catalogue } from '../../electron/engine/store/catalogue.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';

const PAGE_SIZE = 4096;

describe('a damaged catalogue', () => {
  let work: string;
  let site: BenchSite;
  let archiveDir: string;
  let catalogue: string;
  /** The archived URLs and their files in the offline copy, before the damage. */
  let archived: string[];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-damaged-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archiveDir = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archiveDir, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    catalogue = path.join(archiveDir, 'catalogue.sqlite');
    archived = listRecords(archiveDir)
      .filter((u) => u.state === 'archived')
      .map((u) => `${u.url} ${u.localPath}`)
      .sort();
    // A page in the middle of the file turns to garbage, as a bad sector or a torn copy leaves it.
    const pages = Math.floor(statSync(catalogue).size / PAGE_SIZE);
    assert.ok(pages > 20, `${pages} pages`);
    const fd = openSync(catalogue, 'r+');
    try {
      writeSync(fd, Buffer.alloc(PAGE_SIZE, 0xa5), 0, PAGE_SIZE, Math.floor(pages / 2) * PAGE_SIZE);
    } finally {
      closeSync(fd);
    }
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const args of [['stats'], ['list'], ['resume', '--quiet'], ['export', '--format', 'warc', '--out', 'x.warc.gz']]) {
    it(`harvest ${args[0]} says the catalogue is damaged and names it`, async () => {
      const [command, ...rest] = args;
      const out = rest.map((a) => (a === 'x.warc.gz' ? path.join(work, a) : a));
      const r = await runHarvest([command!, archiveDir, ...out]);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, new RegExp(`^harvest: the catalogue ${catalogue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(.+\\); the WARC files beside it are not`, 'm'));
      assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    });
  }

  it('harvest repair refuses while another process writes the archive, and leaves it as it was', async () => {
    const held = Catalogue.holdWriterLock(catalogue);
    try {
      const r = await runHarvest(['repair', archiveDir, '--quiet']);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /^harvest: archive .+ is already being written by another process/);
    } finally {
      held.release();
    }
    assert.deepEqual(readdirSync(work).filter((n) => n.startsWith('archive')), ['archive']);
  });

  it('harvest repair rebuilds the catalogue from the WARC files, keeping the damaged folder', async () => {
    const r = await runHarvest(['repair', archiveDir, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^repaired .+ from 1 WARC file\(s\): \d+ answers in 1 capture\(s\)/m);
    const kept = readdirSync(work).filter((n) => n.startsWith('archive.damaged-'));
    assert.equal(kept.length, 1, readdirSync(work).join(', '));
    assert.match(r.stderr, new RegExp(`the damaged archive is kept at .+${kept[0]}`));
    const stats = await runHarvest(['stats', archiveDir]);
    assert.equal(stats.status, 0, stats.stderr);
    const now = listRecords(archiveDir).filter((u) => u.state === 'archived');
    assert.deepEqual(now.map((u) => `${u.url} ${u.localPath}`).sort(), archived);
    for (const u of now) assert.ok(existsSync(path.join(archiveDir, 'mirror', u.localPath!)), u.localPath!);
    const again = await runHarvest(['repair', archiveDir]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /is not damaged .+nothing to repair/);
  });
});
