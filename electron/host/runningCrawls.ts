import type { JobSummary } from '../../shared/appViews.js';
import type { Job } from '../../shared/job.js';
import { createHostGatesBuffer } from '../engine/politeness/sharedHostGates.js';
import { CrawlRunner } from './crawlRunner.js';
import type { JobRecord } from './dataDir.js';
import { diskUsage } from './diskUsage.js';
import type { JobLibrary } from './jobLibrary.js';
import { statusAfterRun } from './jobRules.js';
import { RateHistory } from './rateHistory.js';

/**
 * The crawls this host is running, each in its own worker thread: starting one, pausing and
 * cancelling it, and recording its outcome in the job library when it ends.
 */
export class RunningCrawls {
  private readonly runners = new Map<string, CrawlRunner>();
  private readonly cancelRequested = new Set<string>();
  /** Each job's rate history from its current (or last) run in this process. */
  readonly history = new RateHistory();
  /** Politeness per host, shared by every crawl worker, so jobs on one host keep to the stricter limits together. */
  private readonly gates = createHostGatesBuffer();
  private stopped = false;

  /** `progressIntervalMs`: the progress event period of every crawl (one 'progress' and at most one 'urls' event per tick). */
  constructor(
    private readonly library: JobLibrary,
    private readonly progressIntervalMs?: number,
  ) {}

  /** True once shutdown began: no crawl starts any more. */
  get closed(): boolean {
    return this.stopped;
  }

  has(id: string): boolean {
    return this.runners.has(id);
  }

  runner(id: string): CrawlRunner | undefined {
    return this.runners.get(id);
  }

  launch(r: JobRecord): JobSummary {
    const runner = new CrawlRunner(
      { archiveDir: r.archiveDir, gates: this.gates, ...(this.progressIntervalMs !== undefined && { progressIntervalMs: this.progressIntervalMs }) },
      {
        onProgress: (progress, urls) => {
          this.library.facts.live(r.id, progress.counts, progress.elapsedMs);
          this.history.remember(r.id, progress);
          this.library.publish({ type: 'progress', id: r.id, progress });
          if (urls.length) this.library.publish({ type: 'urls', id: r.id, events: urls });
        },
        onState: (state, _message, politeness) => {
          if (state === 'pausing' && r.status === 'running') {
            r.status = 'pausing';
            this.library.changed(r);
          }
          // Changed while running (jobs.control or `harvest control`): the crawl kept it with the job.
          if (politeness !== undefined) {
            r.job = { ...(r.job as Job), politeness };
            this.library.changed(r);
          }
        },
      },
    );
    this.runners.set(r.id, runner);
    this.history.delete(r.id);
    r.status = 'running';
    r.error = null;
    void runner.done.then((outcome) => {
      this.runners.delete(r.id);
      const cancelled = this.cancelRequested.delete(r.id);
      r.status = cancelled && outcome.state !== 'failed' && outcome.state !== 'finished' ? 'cancelled' : statusAfterRun(outcome.state);
      r.error = outcome.state === 'failed' ? (outcome.error ?? 'the crawl failed') : outcome.state === 'finished' ? outcome.error : null;
      r.bytesOnDisk = diskUsage(r.archiveDir);
      this.library.facts.read(r.id, r.archiveDir);
      if (this.library.has(r.id)) this.library.changed(r);
    });
    return this.library.changed(r);
  }

  /** Asks the job's crawl to pause; false when none runs. */
  pause(r: JobRecord): boolean {
    const runner = this.runners.get(r.id);
    if (!runner) return false;
    if (r.status === 'running') {
      runner.pause();
      r.status = 'pausing';
      this.library.changed(r);
    }
    return true;
  }

  /** Pauses the job's crawl so its checkpoint is clean, then marks it cancelled when it ends; false when none runs. */
  cancel(r: JobRecord): boolean {
    const runner = this.runners.get(r.id);
    if (!runner) return false;
    this.cancelRequested.add(r.id);
    runner.pause();
    if (r.status === 'running') r.status = 'pausing';
    return true;
  }

  /** Pauses every crawl and waits until each has checkpointed and recorded its final status. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    const running = [...this.runners.entries()];
    for (const [id, runner] of running) {
      runner.pause();
      const r = this.library.find(id);
      if (r && r.status === 'running') r.status = 'pausing';
    }
    await Promise.all(running.map(([, runner]) => runner.done));
    // Let each run's completion handler record its final status before the caller saves.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
