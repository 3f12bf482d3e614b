import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HostEvent, ImportStatus } from '../../shared/contract.js';
import type { Job } from '../../shared/job.js';
import { importArchives, ImportInputError } from '../engine/import/importArchives.js';
import { checkInputs } from '../engine/import/sources.js';
import { CATALOGUE_FILE } from '../engine/store/archive.js';
import { HostError } from './hostError.js';
import { slug } from './jobRules.js';
import type { JobService } from './jobService.js';

/** Progress events per import are kept to a few a second. */
const PROGRESS_EVENT_GAP_MS = 200;

/**
 * Imports started from the app (`harvest import` behind a command): each into a new archive folder,
 * its progress pushed as 'import' events; when done the archive joins the library as a job. Two
 * imports never write one folder, and a folder the library already holds is refused.
 */
export class ImportManager {
  private readonly running = new Map<string, { status: ImportStatus; done: Promise<void> }>();

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
    if ([...this.running.values()].some((r) => r.status.outDir === outDir)) throw new HostError('conflict', `an import into ${outDir} is already running`);
    if (existsSync(path.join(outDir, CATALOGUE_FILE))) throw new HostError('conflict', `${outDir} already holds an archive; choose a new folder (Open archive… adds it to the library)`);
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
    let lastEventMs = 0;
    const publish = () => this.emit({ type: 'import', import: { ...status, progress: { ...status.progress } } });
    const run = async () => {
      try {
        const r = await importArchives(paths, outDir, {
          ...(args.name?.trim() && { name: args.name.trim() }),
          onProgress: (p) => {
            status.progress = { phase: p.phase, done: p.done, total: p.total, records: p.records, damaged: p.damaged, duplicates: p.duplicates };
            const now = Date.now();
            if (now - lastEventMs >= PROGRESS_EVENT_GAP_MS) {
              lastEventMs = now;
              publish();
            }
          },
        });
        status.result = { files: r.files, records: r.records, captures: r.captures, documents: r.documents, skipped: r.problems.length, duplicates: r.duplicates };
        status.jobId = this.jobs.importArchive(r.dir).id;
        status.state = 'done';
      } catch (e) {
        status.state = 'failed';
        status.error = e instanceof Error ? e.message : String(e);
      } finally {
        this.running.delete(status.importId);
        publish();
      }
    };
    const entry = { status, done: Promise.resolve() };
    this.running.set(status.importId, entry);
    publish();
    entry.done = run();
    return { ...status, progress: { ...status.progress } };
  }

  /** Waits for running imports to end (an import can't be paused: its archive is only whole at the end). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
