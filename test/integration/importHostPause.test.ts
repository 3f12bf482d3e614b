/**
 * Pause and resume of an import started from the app, through the host's commands (what the HTTP
 * API and the desktop app call): paused at a record ('pausing', then 'paused'), resumed to the end,
 * and the archive is what `harvest import` of the same files makes. A host closed during an import
 * pauses it, and `archives.import` of the same files into the same folder on the next host goes on
 * with it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HostEvent, Reply } from '../../shared/contract.js';
import type { ImportStatus } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { archiveContents, writeImportInputs } from '../helpers/importResumeFixture.js';

const NAME = 'Paused import';
const WAIT_MS = 300_000;

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

type ImportEvent = Extract<HostEvent, { type: 'import' }>;
const isImport = (e: HostEvent): e is ImportEvent => e.type === 'import';
const importState = (importId: string, ...states: ImportStatus['state'][]) => (e: HostEvent) => isImport(e) && e.import.importId === importId && states.includes(e.import.state);

/** The archive's contents without what joining the library adds or the wall clock sets. */
function contents(archive: string): Record<string, unknown> {
  const c = archiveContents(archive);
  return Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'catalogue meta'));
}

describe('archives.importPause / archives.importResume', { timeout: 900_000 }, () => {
  let work: string;
  let inputs: string[];
  let reference: Record<string, unknown>;
  let host: EngineHost | null = null;
  const startHost = () => {
    const h = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    const log = new EventLog();
    h.onEvent(log.listener);
    host = h;
    return { h, log };
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-host-pause-'));
    const inDir = path.join(work, 'in');
    mkdirSync(inDir);
    inputs = writeImportInputs(inDir, { first: 1200, second: 300, third: 300 });
    const ref = path.join(work, 'reference');
    const r = await runHarvest(['import', ...inputs, '--out', ref, '--name', NAME, '--quiet'], { timeoutMs: WAIT_MS });
    assert.equal(r.status, 0, r.stderr);
    reference = contents(ref);
  });
  after(async () => {
    await host?.shutdown();
    rmSync(work, { recursive: true, force: true });
  });

  it('pauses at a record, shows it paused, and resumes to the archive an uninterrupted import makes', async () => {
    const { h, log } = startHost();
    const outDir = path.join(work, 'paused');
    const started = value<ImportStatus>(await h.handle('archives.import', { paths: inputs, outDir, name: NAME }));
    await log.next((e) => isImport(e) && e.import.importId === started.importId && e.import.progress.records > 0, WAIT_MS);
    const pausing = value<ImportStatus>(await h.handle('archives.importPause', { importId: started.importId }));
    assert.equal(pausing.state, 'pausing');
    const paused = ((await log.next(importState(started.importId, 'paused', 'done', 'failed'), WAIT_MS)) as ImportEvent).import;
    assert.equal(paused.state, 'paused', paused.error ?? '');
    assert.equal(paused.jobId, null);
    assert.ok(paused.progress.records > 0 && paused.progress.done < paused.progress.total, JSON.stringify(paused.progress));

    const resumed = value<ImportStatus>(await h.handle('archives.importResume', { importId: started.importId }));
    assert.equal(resumed.state, 'running');
    const done = ((await log.next(importState(started.importId, 'done', 'failed', 'paused'), WAIT_MS)) as ImportEvent).import;
    assert.equal(done.state, 'done', done.error ?? '');
    assert.ok(done.jobId, 'the archive joined the library');
    assert.deepEqual(contents(outDir), reference);

    const again = await h.handle('archives.importResume', { importId: started.importId });
    assert.equal(again.ok, false, 'a finished import is no longer there to resume');
    await h.shutdown();
    host = null;
  });

  it('pauses imports when the host closes; the same files into the same folder go on with it', async () => {
    const outDir = path.join(work, 'closed');
    const first = startHost();
    const started = value<ImportStatus>(await first.h.handle('archives.import', { paths: inputs, outDir, name: NAME }));
    await first.log.next((e) => isImport(e) && e.import.importId === started.importId && e.import.progress.records > 0, WAIT_MS);
    await first.h.shutdown();
    host = null;
    const last = first.log.events.filter(isImport).at(-1)!.import;
    assert.equal(last.state, 'paused', last.error ?? '');

    const second = startHost();
    const other = await second.h.handle('archives.import', { paths: [inputs[0]!], outDir, name: NAME });
    assert.ok(!other.ok && other.error.code === 'conflict' && /holds an unfinished import of/.test(other.error.message), JSON.stringify(other));
    const again = value<ImportStatus>(await second.h.handle('archives.import', { paths: inputs, outDir, name: NAME }));
    const done = ((await second.log.next(importState(again.importId, 'done', 'failed', 'paused'), WAIT_MS)) as ImportEvent).import;
    assert.equal(done.state, 'done', done.error ?? '');
    assert.deepEqual(contents(outDir), reference);
  });
});
