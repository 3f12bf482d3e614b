import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { ExportStatus, JobSummary } from '../../shared/appViews.js';
import { EXPORT_FORMATS } from '../../shared/metadata.js';
import { EXPORTERS } from '../../electron/engine/export/exporters.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost } from '../../electron/host/engineHost.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { diskFullEnv, fillDiskAfter } from '../helpers/diskFull.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';

const OUT_NAME = { wacz: 'site.wacz', warc: 'site.warc.gz', zip: 'site.zip', bagit: 'site-bag' } as const;

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

function sizeOf(p: string): number {
  const s = statSync(p);
  return s.isDirectory() ? readdirSync(p).reduce((n, name) => n + sizeOf(path.join(p, name)), 0) : s.size;
}

/** A process that has exited: its id names no one (until the system reuses it). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('exports onto a full disk fail clearly and leave nothing behind', () => {
  let work: string;
  let site: BenchSite;
  let archiveDir: string;
  /** Bytes each format writes into its output folder when the disk has room. */
  const fullSize = new Map<string, number>();

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-export-full-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archiveDir = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archiveDir, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    for (const format of EXPORT_FORMATS) {
      const dir = path.join(work, `roomy-${format}`);
      mkdirSync(dir);
      const r = await runHarvest(['export', archiveDir, '--format', format, '--out', path.join(dir, OUT_NAME[format]), '--quiet']);
      assert.equal(r.status, 0, r.stderr);
      fullSize.set(format, sizeOf(path.join(dir, OUT_NAME[format])));
    }
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const format of EXPORT_FORMATS) {
    it(`${format}: every point of filling up ends in exit 1, a message naming the disk, and an empty folder`, async () => {
      // Full from the start, part-way through (the index and the pages before the zip), and near the end.
      for (const share of [0, 0.3, 0.95]) {
        const dir = path.join(work, `full-${format}-${share}`);
        mkdirSync(dir);
        const out = path.join(dir, OUT_NAME[format]);
        const r = await runHarvest(['export', archiveDir, '--format', format, '--out', out, '--quiet'], {
          env: diskFullEnv(dir, Math.floor(share * fullSize.get(format)!)),
        });
        assert.equal(r.status, 1, `${format} at ${share}: exit ${r.status}, stderr: ${r.stderr}`);
        assert.match(r.stderr, /^harvest: export failed: could not write .*: the disk is full \(no space left on the device\); nothing was written/m);
        assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
        assert.deepEqual(readdirSync(dir), [], `${format} at ${share} left files behind`);
      }
    });
  }

  it('removes the work folders of killed exports at the next export, and no other', async () => {
    const dir = path.join(work, 'after-kill');
    const orphan = path.join(dir, `.harvest-export-${deadPid()}-Ab12Cd`);
    const live = path.join(dir, `.harvest-export-${process.pid}-Ef34Gh`);
    mkdirSync(orphan, { recursive: true });
    mkdirSync(live);
    const r = await runHarvest(['export', archiveDir, '--format', 'warc', '--out', path.join(dir, 'site.warc.gz'), '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), [path.basename(live), 'site.warc.gz'].sort());
  });

  it('the app reports a full disk as a failed export with the same message, and removes orphans when it starts', async () => {
    const dir = path.join(work, 'app-full');
    const orphan = path.join(dir, `.harvest-export-${deadPid()}-Ij56Kl`);
    mkdirSync(orphan, { recursive: true });
    const host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: EXPORTERS, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    const log = new EventLog();
    host.onEvent(log.listener);
    const restore = fillDiskAfter(dir, Math.floor(0.5 * fullSize.get('wacz')!));
    try {
      const job = value<JobSummary>(await host.handle('archives.open', { archiveDir }));
      const outPath = path.join(dir, 'site.wacz');
      const settled = log.next((e) => e.type === 'export' && e.export.state !== 'running', 60_000);
      value<ExportStatus>(await host.handle('archives.export', { id: job.id, format: 'wacz', outPath }));
      const end = await settled;
      assert.ok(end.type === 'export');
      assert.equal(end.export.state, 'failed');
      assert.match(end.export.error ?? '', /could not write .*site\.wacz: the disk is full/);
      assert.deepEqual(readdirSync(dir), [], 'nothing half-made, and the orphan is gone');
    } finally {
      restore();
      await host.shutdown();
    }
  });
});
