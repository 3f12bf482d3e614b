/**
 * "Import…" in the app's Library, through the host's commands: a WARC another tool wrote (warcio.js)
 * becomes a new archive with progress events, and is then in the Library's list; inputs that hold
 * nothing to import, folders already in use and folders that can't be written are refused, naming
 * the cause.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { HostEvent, Reply } from '../../shared/contract.js';
import type { ArchiveSummary, ImportStatus, JobSummary, Paged, PageRow } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { EventLog } from '../helpers/hostEvents.js';

const ORIGIN = 'http://imported.example.test';
const DATE = '2024-05-06T07:08:09Z';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

function failure(r: Reply<unknown>): { code: string; message: string } {
  if (r.ok) throw new Error('the command was expected to fail');
  return r.error;
}

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

async function response(url: string, body: string): Promise<Buffer> {
  const r = WARCRecord.create(
    { url: `${ORIGIN}${url}`, date: DATE, type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html; charset=utf-8' }, warcVersion: 'WARC/1.1' },
    [Buffer.from(body)],
  );
  return Buffer.from(await WARCSerializer.serialize(r, { gzip: true }));
}

const isImport = (e: HostEvent): e is Extract<HostEvent, { type: 'import' }> => e.type === 'import';

describe('archives.import: Import… in the Library', { timeout: 120_000 }, () => {
  let work: string;
  let warc: string;
  let host: EngineHost;
  const log = new EventLog();

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-host-'));
    warc = path.join(work, 'other-tool.warc.gz');
    writeFileSync(
      warc,
      Buffer.concat([
        await response('/', page('Reading room home', '<p>Opening hours of the reading room</p><a href="/maps.html">maps</a>')),
        await response('/maps.html', page('Map collection', '<p>Old maps of the county</p><a href="/">home</a>')),
      ]),
    );
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    host.onEvent(log.listener);
  });
  after(async () => {
    await host?.shutdown();
    rmSync(work, { recursive: true, force: true });
  });

  let imported: ImportStatus;
  const outDir = () => path.join(work, 'imported');

  it('imports a WARC into a new folder with progress events, and the archive is in the Library', async () => {
    const started = value<ImportStatus>(await host.handle('archives.import', { paths: [warc], outDir: outDir(), name: 'From another tool' }));
    assert.equal(started.state, 'running');
    assert.equal(started.outDir, outDir());
    const ended = await log.next((e) => isImport(e) && e.import.importId === started.importId && e.import.state !== 'running');
    imported = (ended as Extract<HostEvent, { type: 'import' }>).import;
    assert.equal(imported.state, 'done', imported.error ?? '');
    assert.deepEqual(imported.result, { files: 1, records: 2, captures: 1, documents: 2, skipped: 0, duplicates: 0 });

    const progress = log.events.filter(isImport).map((e) => e.import).filter((s) => s.importId === started.importId && s.state === 'running');
    const reading = progress.find((s) => s.progress.phase === 'reading');
    assert.ok(reading, 'a progress event while reading the records');
    assert.ok(reading.progress.total > 0 && reading.progress.records >= 1, JSON.stringify(reading.progress));

    const listed = value<ArchiveSummary[]>(await host.handle('archives.list', {}));
    const entry = listed.find((a) => a.jobId === imported.jobId);
    assert.ok(entry, 'the imported archive is in the Library');
    assert.equal(entry.name, 'From another tool');
    assert.equal(entry.archiveDir, outDir());
    assert.equal(entry.status, 'finished');
    assert.equal(entry.pages, 2);
    assert.deepEqual(entry.seeds, [`${ORIGIN}/`]);
    const pages = value<Paged<PageRow>>(await host.handle('archives.pages', { id: imported.jobId }));
    assert.deepEqual(pages.rows.map((r) => r.title).sort(), ['Map collection', 'Reading room home']);
    const jobs = value<JobSummary[]>(await host.handle('jobs.list', {}));
    assert.equal(jobs.find((j) => j.id === imported.jobId)?.status, 'finished');
  });

  it('refuses a folder the Library already holds, and one another import is writing', async () => {
    const again = failure(await host.handle('archives.import', { paths: [warc], outDir: outDir() }));
    assert.equal(again.code, 'conflict');
    assert.match(again.message, /already in the library as 'From another tool'/);

    const busy = path.join(work, 'busy');
    const first = value<ImportStatus>(await host.handle('archives.import', { paths: [warc], outDir: busy }));
    const second = failure(await host.handle('archives.import', { paths: [warc], outDir: busy }));
    assert.equal(second.code, 'conflict');
    assert.match(second.message, /already running/);
    await log.next((e) => isImport(e) && e.import.importId === first.importId && e.import.state !== 'running');
  });

  it('refuses at once an input that is missing or holds nothing to import, naming it', async () => {
    const missing = failure(await host.handle('archives.import', { paths: [path.join(work, 'nowhere.warc.gz')] }));
    assert.equal(missing.code, 'invalid-args');
    assert.match(missing.message, /nowhere\.warc\.gz: no such file or folder/);
    const empty = path.join(work, 'empty-folder');
    mkdirSync(empty);
    writeFileSync(path.join(empty, 'notes.txt'), 'not a WARC');
    const nothing = failure(await host.handle('archives.import', { paths: [empty] }));
    assert.equal(nothing.code, 'invalid-args');
    assert.match(nothing.message, /empty-folder: the folder holds no \.warc, \.warc\.gz, \.arc, \.arc\.gz or \.wacz file/);
    const none = failure(await host.handle('archives.import', { paths: [] }));
    assert.equal(none.code, 'invalid-args');
  });

  it('reports a folder that cannot be made as a failed import with the reason', async () => {
    const file = path.join(work, 'a-file');
    writeFileSync(file, 'x');
    const started = value<ImportStatus>(await host.handle('archives.import', { paths: [warc], outDir: path.join(file, 'archive') }));
    const ended = (await log.next((e) => isImport(e) && e.import.importId === started.importId && e.import.state !== 'running')) as Extract<HostEvent, { type: 'import' }>;
    assert.equal(ended.import.state, 'failed');
    assert.match(ended.import.error ?? '', /a-file/);
    assert.equal(ended.import.jobId, null);
  });

  it('without a folder, puts the archive in the data folder, named after the import', async () => {
    const started = value<ImportStatus>(await host.handle('archives.import', { paths: [warc], name: 'Second copy' }));
    assert.equal(path.dirname(started.outDir), path.join(work, 'data', 'archives'));
    assert.match(path.basename(started.outDir), /^second-copy-[0-9a-f]{8}$/);
    const ended = (await log.next((e) => isImport(e) && e.import.importId === started.importId && e.import.state !== 'running')) as Extract<HostEvent, { type: 'import' }>;
    assert.equal(ended.import.state, 'done', ended.import.error ?? '');
    const listed = value<ArchiveSummary[]>(await host.handle('archives.list', {}));
    assert.ok(listed.some((a) => a.name === 'Second copy' && a.archiveDir === started.outDir));
  });
});
