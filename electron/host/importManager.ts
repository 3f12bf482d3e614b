import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HostEvent } from '../../shared/contract.js';
import type { ImportStatus } from '../../shared/appViews.js';
import type { Job } from '../../shared/job.js';
import { importArchives, ImportInputError, interruptedImportOf, resumeImport, type ImportOptions, type ImportResult } from '../engine/import/importArchives.js';
import { runInputs } from '../engine/import/importRun.js';
import { checkInputs } from '../engine/import/sources.js';
import { CATALOGUE_FILE } from '../engine/store/archive.js';
import { HostError } from './hostError.js';
import { slug } from './jobRules.js';
import type { JobService } from './jobService.js';

/** Progress events per import are kept to a few a second. */
const PROGRESS_EVENT_GAP_MS = 200;

interface Entry {
  status: ImportStatus;
  done: Promise<void>;
  /** Set by pause(): the import stops at its next record. */
  pausing: boolean;
}

/**
 * Imports started from the app (`harvest import` behind a command): each into a new archive folder,
 * its progress pushed as 'import' events; when done the archive joins the library as a job. Two
 * imports never write one folder, and a folder the library already holds is refused. An import can
 * be paused and resumed, as `harvest import` can; one paused stays listed here until resumed.
 */
export class ImportManager {
  /** Imports running, pausing or paused. */
  private readonly running = new Map<string, Entry>();

  constructor(
    private readonly jobs: JobService,
    private readonly emit: (e: HostEvent) => void,
  ) {}

  async start(args: { paths: string[]; outDir?: string | undefined; name?: string | undefined }): Promise<ImportStatus> {
    const paths = args.paths.map((p) => p.trim()).filter((p) => p.length > 0);
    if (paths.length === 0) throw new HostError('invalid-args', 'name at least one WARC, WACZ or folder to import');
    try {
      await checkInputs(paths);
    } catch (e) {
      if (e instanceof ImportInputError) throw new HostError('invalid-args', e.message);
      throw e;
    }
    const outDir = path.resolve(args.outDir?.trim() || path.join(this.jobs.archivesDir, `${slug(args.name ?? `import ${path.basename(path.resolve(paths[0]!))}`)}-${randomUUID().slice(0, 8)}`));
    const known = this.jobs.byArchiveDir(outDir);
    if (known) throw new HostError('conflict', `${outDir} is already in the library as '${(known.job as Job).name}'; choose a new folder`);
    const there = [...this.running.values()].find((r) => r.status.outDir === outDir);
    if (there !== undefined) {
      // The same files again (the dialog closed on a paused import): it goes on.
      if (there.status.state === 'paused' && runInputs(there.status.paths).join('\n') === runInputs(paths).join('\n')) return this.resume(there.status.importId);
      throw new HostError('conflict', `an import into ${outDir} is already ${there.status.state}`);
    }
    if (existsSync(path.join(outDir, CATALOGUE_FILE))) unfinishedImportOf(outDir, paths);
    for (const p of paths) {
      const abs = path.resolve(p);
      if (outDir === abs || outDir.startsWith(`${abs}${path.sep}`)) throw new HostError('invalid-args', `the archive folder ${outDir} is inside ${p}, which is being imported`);
    }

    const status: ImportStatus = {
      importId: randomUUID(),
      paths,
      outDir,
      state: 'running',
      progress: { phase: 'starting', done: 0, total: 0, records: 0, damaged: 0, duplicates: 0 },
      jobId: null,
      result: null,
      error: null,
    };
    const name = args.name?.trim();
    const entry: Entry = { status, done: Promise.resolve(), pausing: false };
    this.running.set(status.importId, entry);
    this.launch(entry, (opts) => importArchives(paths, outDir, { ...opts, ...(name && { name }) }));
    return copyOf(status);
  }

  /** Pauses a running import at its next record. */
  pause(importId: string): ImportStatus {
    const entry = this.entry(importId);
    if (entry.status.progress.phase === 'rewriting') throw new HostError('conflict', `the import into ${entry.status.outDir} is writing the offline copy, which can't be paused; it ends soon`);
    if (entry.status.state === 'running') {
      entry.pausing = true;
      entry.status.state = 'pausing';
      this.publish(entry.status);
    }
    return copyOf(entry.status);
  }

  /** Goes on with a paused import. */
  resume(importId: string): ImportStatus {
    const entry = this.entry(importId);
    if (entry.status.state !== 'paused') throw new HostError('conflict', `the import into ${entry.status.outDir} is ${entry.status.state}, not paused`);
    entry.pausing = false;
    entry.status.state = 'running';
    entry.status.error = null;
    const outDir = entry.status.outDir;
    this.launch(entry, (opts) => resumeImport(outDir, opts));
    return copyOf(entry.status);
  }

  private entry(importId: string): Entry {
    const entry = this.running.get(importId);
    if (entry === undefined) throw new HostError('not-found', `no running or paused import ${importId}`);
    return entry;
  }

  private publish(status: ImportStatus): void {
    this.emit({ type: 'import', import: copyOf(status) });
  }

  /** Runs the import (or its resume), pushing its progress; it ends done, failed or paused. */
  private launch(entry: Entry, run: (opts: ImportOptions) => Promise<ImportResult>): void {
    const status = entry.status;
    let lastEventMs = 0;
    const go = async () => {
      try {
        const r = await run({
          pausing: () => entry.pausing,
          onProgress: (p) => {
            status.progress = { phase: p.phase, done: p.done, total: p.total, records: p.records, damaged: p.damaged, duplicates: p.duplicates };
            const now = Date.now();
            if (now - lastEventMs >= PROGRESS_EVENT_GAP_MS) {
              lastEventMs = now;
              this.publish(status);
            }
          },
        });
        if (r.paused) {
          status.state = 'paused';
          return;
        }
        status.result = { files: r.files, records: r.records, captures: r.captures, documents: r.documents, skipped: r.skipped, duplicates: r.duplicates };
        status.jobId = this.jobs.importArchive(r.dir).id;
        status.state = 'done';
        this.running.delete(status.importId);
      } catch (e) {
        status.state = 'failed';
        status.error = e instanceof Error ? e.message : String(e);
        this.running.delete(status.importId);
      } finally {
        this.publish(status);
      }
    };
    this.publish(status);
    entry.done = go();
  }

  /** Pauses running imports (each at its next record) and waits for them to stop: `archives.import` of the same files goes on with one. */
  async shutdown(): Promise<void> {
    for (const entry of this.running.values()) entry.pausing = true;
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}

function copyOf(status: ImportStatus): ImportStatus {
  return { ...status, progress: { ...status.progress } };
}

/** Lets an import into a folder that holds a catalogue go on only when it is an unfinished import of the same files. */
function unfinishedImportOf(outDir: string, paths: readonly string[]): void {
  let before;
  try {
    before = interruptedImportOf(outDir);
  } catch (e) {
    throw new HostError('conflict', `${outDir} holds an archive that cannot be read now (${e instanceof Error ? e.message : String(e)}); choose a new folder`);
  }
  if (before === null) throw new HostError('conflict', `${outDir} already holds an archive; choose a new folder (Open archive… adds it to the library)`);
  if (before.inputs.join('\n') !== runInputs(paths).join('\n')) {
    throw new HostError('conflict', `${outDir} holds an unfinished import of ${before.inputs.join(', ')}; give the same files to go on with it, or choose a new folder`);
  }
}
