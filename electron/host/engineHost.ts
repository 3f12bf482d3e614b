import type { HostEvent } from '../../shared/contract.js';
import { createCommandHandler, type CommandHandler, type HostShell } from './commands.js';
import { DataDir } from './dataDir.js';
import { ExportLog } from './exportLog.js';
import { ExportManager, type ExporterMap } from './exportManager.js';
import { JobService } from './jobService.js';

export interface EngineHost {
  handle: CommandHandler;
  onEvent(listener: (e: HostEvent) => void): () => void;
  jobs: JobService;
  exports: ExportManager;
  /** Pauses and checkpoints every running crawl, then releases the data folder. */
  shutdown(): Promise<void>;
}

export interface EngineHostOptions {
  dataDir: string;
  exporters: ExporterMap;
  shell: HostShell;
  progressIntervalMs?: number;
  /** The web host's path prefix for downloading finished exports (`…/download/`); none in Electron. */
  downloadBase?: string;
}

/** The engine as Electron main and the web host both use it: the data folder, jobs, exports and commands. */
export function startEngineHost(opts: EngineHostOptions): EngineHost {
  const jobs = new JobService({
    dataDir: DataDir.open(opts.dataDir),
    ...(opts.progressIntervalMs !== undefined && { progressIntervalMs: opts.progressIntervalMs }),
  });
  const exports = new ExportManager(jobs, opts.exporters, (e) => jobs.publish(e), new ExportLog(jobs.dataDir), opts.downloadBase ?? null);
  return {
    handle: createCommandHandler(jobs, exports, opts.shell),
    onEvent: (l) => jobs.onEvent(l),
    jobs,
    exports,
    shutdown: () => jobs.shutdown(),
  };
}
