import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../../shared/contract.js';
import type { ExportStatus, JobSummary } from '../../../shared/appViews.js';
import type { DublinCore } from '../../../shared/metadata.js';
import type { Exporter } from '../../../electron/engine/export/types.js';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';
import { WEB_SHELL_ACTIONS } from '../../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../../electron/host/engineHost.js';
import { EventLog } from '../../helpers/hostEvents.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Writes the archive's job name and metadata title, reporting progress as it goes. */
const fakeZip: Exporter = async (archive, outPath, opts) => {
  opts.onProgress?.({ phase: 'writing', doneBytes: 0, totalBytes: 10 });
  writeFileSync(outPath, `${archive.job.name}|${opts.metadata.title}`);
  opts.onProgress?.({ phase: 'writing', doneBytes: 10, totalBytes: 10 });
  return { path: outPath, bytes: 10, files: 1 };
};

/** Never finishes on its own: it waits to be cancelled. */
const stuckWacz: Exporter = (_archive, _outPath, opts) =>
  new Promise((_resolve, reject) => {
    opts.onProgress?.({ phase: 'indexing WARC', doneBytes: 1, totalBytes: 0 });
    opts.signal?.addEventListener('abort', () => reject(new Error('aborted')));
  });

describe('exports and metadata through the command handler', () => {
  let work: string;
  let host: EngineHost;
  let log: EventLog;
  let job: JobSummary;
  let hanging: Server;
  let hangingOrigin: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-export-'));
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: { zip: fakeZip, wacz: stuckWacz }, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    log = new EventLog();
    host.onEvent(log.listener);
    job = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'Exported', seeds: ['http://127.0.0.1:9/'] } }));
    // A site that never answers keeps a crawl running for as long as a test needs.
    hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const addr = hanging.address();
    hangingOrigin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });

  after(async () => {
    await host?.shutdown();
    hanging?.closeAllConnections();
    hanging?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('stores Dublin Core metadata and writes it into an export, reporting progress then the result', async () => {
    const saved = value<DublinCore>(await host.handle('archives.setMetadata', { id: job.id, metadata: { title: 'Faculty site 2026', subject: ['history'] } }));
    assert.equal(saved.creator, '', 'unset fields get their defaults');
    assert.equal(value<DublinCore>(await host.handle('archives.getMetadata', { id: job.id })).title, 'Faculty site 2026');
    const outPath = path.join(work, 'out.zip');
    const done = log.next((e) => e.type === 'export' && e.export.state === 'done');
    const started = value<ExportStatus>(await host.handle('archives.export', { id: job.id, format: 'zip', outPath }));
    assert.equal(started.state, 'running');
    const finished = await done;
    assert.ok(finished.type === 'export');
    assert.deepEqual(finished.export.result, { bytes: 10, files: 1 });
    assert.equal(finished.export.progress.doneBytes, 10);
    assert.equal(readFileSync(outPath, 'utf8'), 'Exported|Faculty site 2026');
  });

  it('cancels a running export through its AbortSignal', async () => {
    const started = value<ExportStatus>(await host.handle('archives.export', { id: job.id, format: 'wacz' }));
    assert.equal(path.dirname(started.outPath), path.dirname(job.archiveDir), 'the default goes beside the archive');
    assert.match(started.outPath, /\.wacz$/);
    const second = await host.handle('archives.export', { id: job.id, format: 'zip', outPath: path.join(work, 'two.zip') });
    assert.equal(!second.ok && second.error.code, 'conflict', 'one export of an archive at a time');
    const cancelled = log.next((e) => e.type === 'export' && e.export.exportId === started.exportId && e.export.state === 'cancelled');
    value(await host.handle('exports.cancel', { exportId: started.exportId }));
    await cancelled;
    const again = await host.handle('exports.cancel', { exportId: started.exportId });
    assert.equal(!again.ok && again.error.code, 'not-found');
  });

  it('refuses to export an archive another process writes, whose metadata it reads meanwhile', async () => {
    // As a CLI crawl of the job's archive holds it.
    const held = Catalogue.holdWriterLock(path.join(job.archiveDir, 'catalogue.sqlite'));
    try {
      const r = await host.handle('archives.export', { id: job.id, format: 'zip', outPath: path.join(work, 'held.zip') });
      assert.equal(!r.ok && r.error.code, 'conflict');
      assert.match(!r.ok ? r.error.message : '', /already being written by another process/);
      assert.equal(value<DublinCore>(await host.handle('archives.getMetadata', { id: job.id })).title, 'Faculty site 2026');
    } finally {
      held.release();
    }
  });

  it('answers unsupported for a format without an exporter', async () => {
    const r = await host.handle('archives.export', { id: job.id, format: 'bagit' });
    assert.equal(!r.ok && r.error.code, 'unsupported');
  });

  it('refuses to export a running job; its metadata goes through the crawl worker meanwhile', async () => {
    const running = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'Busy', seeds: [`${hangingOrigin}/`] } }));
    const started = log.jobStatus(running.id, 'running');
    value(await host.handle('jobs.start', { id: running.id }));
    await started;
    const r = await host.handle('archives.export', { id: running.id, format: 'zip', outPath: path.join(work, 'busy.zip') });
    assert.equal(!r.ok && r.error.code, 'conflict');
    const edit = await host.handle('jobs.update', { id: running.id, job: { seeds: [`${hangingOrigin}/x`] } });
    assert.equal(!edit.ok && edit.error.code, 'conflict');
    value(await host.handle('archives.setMetadata', { id: running.id, metadata: { title: 'While running' } }));
    assert.equal(value<DublinCore>(await host.handle('archives.getMetadata', { id: running.id })).title, 'While running');
    const cancelled = log.jobStatus(running.id, 'cancelled');
    value(await host.handle('jobs.cancel', { id: running.id }));
    await cancelled;
    assert.equal(value<DublinCore>(await host.handle('archives.getMetadata', { id: running.id })).title, 'While running');
  });
});
