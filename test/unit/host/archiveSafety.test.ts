import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../../shared/contract.js';
import type { DeleteReport, JobSummary } from '../../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../../electron/host/engineHost.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const job = { name: 'Notes site', seeds: ['http://127.0.0.1:9/'] };

describe('archive folders: safe creation, deletion and reopening', () => {
  let work: string;
  let host: EngineHost;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-safety-'));
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://{job}.localhost:1/x/', ...WEB_SHELL_ACTIONS } });
  });

  after(async () => {
    await host.shutdown();
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses to make an archive in a folder of the user's files, and says why", async () => {
    const thesis = path.join(work, 'thesis');
    mkdirSync(thesis);
    writeFileSync(path.join(thesis, 'chapter1.docx'), 'draft');
    const r = await host.handle('jobs.create', { job, archiveDir: thesis });
    assert.ok(!r.ok, 'a non-empty folder that is not an archive is refused');
    assert.equal(r.error.code, 'invalid-args');
    assert.match(r.error.message, /not empty/);
    assert.match(r.error.message, /chapter1\.docx/);
    assert.deepEqual(value<JobSummary[]>(await host.handle('jobs.list', {})), []);
    assert.equal(readFileSync(path.join(thesis, 'chapter1.docx'), 'utf8'), 'draft');
  });

  it('refuses the home folder, and the folders above it', async () => {
    // HOME points at a scratch folder, so a host that wrongly accepts writes nowhere that matters
    // (the root and system folders are checked without the file system in archiveFolder.test.ts).
    const home = path.join(work, 'home', 'ann');
    mkdirSync(home, { recursive: true });
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      assert.equal(homedir(), home);
      for (const dir of [home, path.dirname(home)]) {
        const r = await host.handle('jobs.create', { job, archiveDir: dir });
        assert.ok(!r.ok, dir);
        assert.match(r.error.message, /home folder/, dir);
      }
      value(await host.handle('jobs.create', { job, archiveDir: path.join(home, 'Archives', 'site') }));
    } finally {
      process.env.HOME = saved;
    }
  });

  it('deleting a job with its archive removes only what Harvest made and reports what it left', async () => {
    const dir = path.join(work, 'archive-a');
    const created = value<JobSummary>(await host.handle('jobs.create', { job, archiveDir: dir }));
    // Files Harvest writes while crawling, and a file of the user's put in the folder later.
    mkdirSync(path.join(dir, 'warc'));
    writeFileSync(path.join(dir, 'warc', 'harvest-1.warc.gz'), 'w');
    writeFileSync(path.join(dir, 'mirror', 'index.html'), '<p>x');
    writeFileSync(path.join(dir, 'my-notes.txt'), 'keep me');
    const report = value<DeleteReport>(await host.handle('jobs.delete', { id: created.id, deleteArchive: true }));
    assert.equal(readFileSync(path.join(dir, 'my-notes.txt'), 'utf8'), 'keep me');
    for (const gone of ['catalogue.sqlite', 'mirror', 'warc']) assert.equal(existsSync(path.join(dir, gone)), false, gone);
    assert.deepEqual(report.leftBehind, ['my-notes.txt']);
    assert.equal(report.folderRemoved, false);
    assert.equal(report.refused, null);
    assert.ok(report.removed.includes('catalogue.sqlite') && report.removed.includes('mirror') && report.removed.includes('warc'));
  });

  it('removes the folder itself when nothing else was in it', async () => {
    const dir = path.join(work, 'archive-b');
    const created = value<JobSummary>(await host.handle('jobs.create', { job, archiveDir: dir }));
    const report = value<DeleteReport>(await host.handle('jobs.delete', { id: created.id, deleteArchive: true }));
    assert.equal(existsSync(dir), false);
    assert.equal(report.folderRemoved, true);
    assert.deepEqual(report.leftBehind, []);
  });

  it('keeps the folder when asked, and the kept folder opens in the library again', async () => {
    const dir = path.join(work, 'archive-c');
    const created = value<JobSummary>(await host.handle('jobs.create', { job: { ...job, name: 'Kept' }, archiveDir: dir }));
    const report = value<DeleteReport>(await host.handle('jobs.delete', { id: created.id, deleteArchive: false }));
    assert.equal(report.kept, true);
    assert.ok(existsSync(path.join(dir, 'catalogue.sqlite')));
    const reopened = value<JobSummary>(await host.handle('archives.open', { archiveDir: dir }));
    assert.equal(reopened.job.name, 'Kept');
    assert.equal(reopened.archiveDir, dir);
    assert.equal(reopened.status, 'new', 'never started, so new again');
    const again = await host.handle('archives.open', { archiveDir: dir });
    assert.ok(!again.ok && again.error.code === 'conflict', 'an archive already in the library is not added twice');
    const notArchive = await host.handle('archives.open', { archiveDir: work });
    assert.ok(!notArchive.ok && /not a Harvest archive/.test(notArchive.error.message));
  });
});
