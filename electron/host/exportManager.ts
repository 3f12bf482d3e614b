import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { HostEvent } from '../../shared/contract.js';
import type { ExportRecord, ExportStatus } from '../../shared/appViews.js';
import type { ExportFormat } from '../../shared/metadata.js';
import { sweepExportTemps } from '../engine/export/exportTemp.js';
import type { Exporter } from '../engine/export/types.js';
import { readMetadata } from '../engine/store/metadata.js';
import type { ExportLog } from './exportLog.js';
import { HostError } from './hostError.js';
import type { JobService } from './jobService.js';

export type ExporterMap = Partial<Record<ExportFormat, Exporter>>;

const EXTENSION: Record<ExportFormat, string> = { wacz: '.wacz', warc: '.warc.gz', zip: '.zip', bagit: '' };
/** Progress events per export are kept to a few a second. */
const PROGRESS_EVENT_GAP_MS = 200;

/** Runs exports of idle archives with the injected exporters, reporting progress as 'export' events. */
export class ExportManager {
  private readonly running = new Map<string, { status: ExportStatus; abort: AbortController }>();

  constructor(
    private readonly jobs: JobService,
    private readonly exporters: ExporterMap,
    private readonly emit: (e: HostEvent) => void,
    /** Finished exports, for the library's list; none in tests that only run exports. */
    private readonly log: ExportLog | null = null,
    /** Where the browser downloads a finished export file (web host only). */
    private readonly downloadBase: string | null = null,
  ) {}

  /**
   * Removes the work folders that exports killed in an earlier session left where exports are
   * written (beside each archive by default, and wherever one was written before). Returns how many.
   */
  async sweepOrphans(): Promise<number> {
    const folders = new Set([...this.jobs.list().map((j) => path.dirname(j.archiveDir)), ...(this.log?.outFolders() ?? [])]);
    let removed = 0;
    for (const dir of folders) removed += await sweepExportTemps(dir);
    return removed;
  }

  /** The same-origin path of a finished export's file, on the web host. */
  readonly downloadPath = (exportId: string): string | null => (this.downloadBase ? `${this.downloadBase}${encodeURIComponent(exportId)}` : null);

  list(jobId: string): ExportRecord[] {
    this.jobs.get(jobId);
    return this.log?.list(jobId, this.downloadPath) ?? [];
  }

  async verify(exportId: string): Promise<ExportRecord> {
    const r = await this.log?.verify(exportId, this.downloadPath);
    if (!r) throw new HostError('not-found', `no finished export ${exportId}`);
    return r;
  }

  /** A finished export's file or bag folder, for the web host's download route; null when unknown or gone. */
  downloadable(exportId: string): string | null {
    const e = this.log?.get(exportId);
    return e && this.log?.list(e.jobId, this.downloadPath).find((r) => r.exportId === exportId)?.downloadPath ? e.outPath : null;
  }

  start(args: { id: string; format: ExportFormat; outPath?: string | undefined; includeMirror: boolean; capture?: number | undefined }): ExportStatus {
    const exporter = this.exporters[args.format];
    if (!exporter) throw new HostError('unsupported', `export to ${args.format} is not available in this build`);
    if (args.capture !== undefined && args.format === 'zip') {
      throw new HostError('invalid-args', 'a ZIP holds the offline copy, which shows the latest capture: choose WACZ, WARC or BagIt to export one capture');
    }
    const { archive, job, release } = this.jobs.openForExport(args.id);
    const outPath = path.resolve(args.outPath ?? defaultOutPath(job.archiveDir, args.format));
    const status: ExportStatus = {
      exportId: randomUUID(),
      jobId: args.id,
      format: args.format,
      outPath,
      state: 'running',
      progress: { phase: 'starting', doneBytes: 0, totalBytes: 0 },
      result: null,
      error: null,
    };
    const abort = new AbortController();
    this.running.set(status.exportId, { status, abort });
    let lastEventMs = 0;
    const publish = () => this.emit({ type: 'export', export: { ...status, progress: { ...status.progress } } });
    const run = async () => {
      try {
        const r = await exporter(archive, outPath, {
          metadata: readMetadata(archive.catalogue),
          includeMirror: args.includeMirror,
          ...(args.capture !== undefined && { capture: args.capture }),
          signal: abort.signal,
          onProgress: (p) => {
            status.progress = p;
            const now = Date.now();
            if (now - lastEventMs >= PROGRESS_EVENT_GAP_MS) {
              lastEventMs = now;
              publish();
            }
          },
        });
        status.outPath = r.path;
        status.result = { bytes: r.bytes, files: r.files };
        await this.log?.add({ exportId: status.exportId, jobId: args.id, format: args.format, outPath: r.path, bytes: r.bytes, files: r.files });
        status.downloadPath = this.log ? (this.log.list(args.id, this.downloadPath).find((e) => e.exportId === status.exportId)?.downloadPath ?? null) : null;
        status.state = 'done';
      } catch (e) {
        status.state = abort.signal.aborted ? 'cancelled' : 'failed';
        status.error = abort.signal.aborted ? null : e instanceof Error ? e.message : String(e);
      } finally {
        release();
        this.running.delete(status.exportId);
        publish();
      }
    };
    publish();
    void run();
    return { ...status };
  }

  cancel(exportId: string): ExportStatus {
    const e = this.running.get(exportId);
    if (!e) throw new HostError('not-found', `no running export ${exportId}`);
    e.abort.abort();
    return { ...e.status };
  }
}

/** Beside the archive folder, named after it and the time, so exports never overwrite one another. */
function defaultOutPath(archiveDir: string, format: ExportFormat): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return path.join(path.dirname(archiveDir), `${path.basename(archiveDir)}-${stamp}${format === 'bagit' ? '-bag' : ''}${EXTENSION[format]}`);
}
