import type { HostEvent } from '../../shared/contract.js';
import { ClusterWatch } from './clusterWatch.js';
import { createCommandHandler, type CommandHandler, type HostShell } from './commands.js';
import { DataDir } from './dataDir.js';
import { ExportLog } from './exportLog.js';
import { ExportManager, type ExporterMap } from './exportManager.js';
import { ImportManager } from './importManager.js';
import { JobService } from './jobService.js';
import { QaManager } from './qaManager.js';
import { Scheduler, systemClock, systemTimers, type Clock, type Timers } from './scheduler.js';

export interface EngineHost {
  handle: CommandHandler;
  onEvent(listener: (e: HostEvent) => void): () => void;
  jobs: JobService;
  exports: ExportManager;
  scheduler: Scheduler;
  clusters: ClusterWatch;
  /** Page analyses started from the app. */
  qa: QaManager;
  /** Imports started from the app. */
  imports: ImportManager;
  /** Pauses and checkpoints every running crawl, then releases the data folder (and lets go of attached clusters). */
  shutdown(): Promise<void>;
}

export interface EngineHostOptions {
  dataDir: string;
  exporters: ExporterMap;
  shell: HostShell;
  progressIntervalMs?: number;
  /** How often attached cluster harvests are read (tests shorten it). */
  clusterPollMs?: number;
  /** The web host's path prefix for downloading finished exports (`…/download/`); none in Electron. */
  downloadBase?: string;
  /** The schedules' time and timer; tests inject their own. */
  clock?: Clock;
  timers?: Timers;
}

/** The engine as Electron main and the web host both use it: the data folder, jobs, exports and commands. */
export function startEngineHost(opts: EngineHostOptions): EngineHost {
  const clock = opts.clock ?? systemClock;
  const jobs = new JobService({
    dataDir: DataDir.open(opts.dataDir),
    now: () => clock.now(),
    ...(opts.progressIntervalMs !== undefined && { progressIntervalMs: opts.progressIntervalMs }),
  });
  const scheduler = new Scheduler(jobs, clock, opts.timers ?? systemTimers);
  // A run that waited for a capture in progress, or for an export, starts when that ends.
  jobs.onEvent((e) => {
    if (e.type === 'job' || (e.type === 'export' && e.export.state !== 'running') || (e.type === 'qa' && e.qa.state !== 'running')) scheduler.poke();
  });
  // Slots missed while the host was closed: one run each job, now.
  scheduler.start();
  const exports = new ExportManager(jobs, opts.exporters, (e) => jobs.publish(e), new ExportLog(jobs.dataDir), opts.downloadBase ?? null);
  // Exports killed with the last session left work folders behind; they go now, in the background.
  void exports.sweepOrphans();
  const clusters = new ClusterWatch((e) => jobs.publish(e), opts.clusterPollMs);
  const qa = new QaManager(jobs, (e) => jobs.publish(e));
  const imports = new ImportManager(jobs, (e) => jobs.publish(e));
  return {
    handle: createCommandHandler(jobs, exports, clusters, opts.shell, qa, imports),
    onEvent: (l) => jobs.onEvent(l),
    jobs,
    exports,
    scheduler,
    clusters,
    qa,
    imports,
    shutdown: async () => {
      scheduler.stop();
      await qa.shutdown();
      await imports.shutdown();
      await clusters.shutdown();
      await jobs.shutdown();
    },
  };
}
