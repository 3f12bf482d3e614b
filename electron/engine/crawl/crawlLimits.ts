import type { SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import type { Catalogue } from '../store/catalogue.js';
import type { Frontier } from './frontier.js';
import type { Lanes } from './lanes.js';
import type { ProgressMeter } from './progress.js';

export interface LimitParts {
  job: Job;
  catalogue: Catalogue;
  frontier: Frontier;
  meter: ProgressMeter;
  lanes: Lanes;
  /** Crawl time of earlier runs, counted against the duration limit. */
  priorDurationMs: number;
  /** Tells the UI a limit was reached. */
  reached: (reason: SkipReason) => void;
  /** Abandons the requests on the wire (the duration limit stops them at once). */
  abortInFlight: () => void;
}

/**
 * The job's page, byte and duration limits. Reaching one settles what is still queued (and not
 * running) as skipped for it; the page limit spares requisites, so saved pages still look right.
 */
export class CrawlLimits {
  /** Set by the byte and duration limits: requests they abandon are skipped for this reason. */
  stopReason: SkipReason | null = null;
  private htmlPages: number;
  private deadlineTimer: NodeJS.Timeout | null = null;

  constructor(private readonly p: LimitParts) {
    this.htmlPages = p.catalogue.htmlPagesArchived();
    const max = p.job.limits.maxPages;
    p.frontier.pagesLimitReached = max !== null && this.htmlPages >= max;
  }

  /** Starts the duration clock and checks the byte limit against earlier runs. */
  start(): void {
    const max = this.p.job.limits.maxDurationMs;
    if (max !== null) {
      const stop = () => {
        this.stopQueue('limit:duration', { requisitesToo: true });
        this.p.abortInFlight();
      };
      const left = max - this.p.priorDurationMs;
      if (left <= 0) stop();
      else this.deadlineTimer = setTimeout(stop, left);
    }
    this.checkBytes();
  }

  stopTimer(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
  }

  pageSaved(): void {
    this.htmlPages++;
    const max = this.p.job.limits.maxPages;
    if (max !== null && this.htmlPages >= max && !this.p.frontier.pagesLimitReached) {
      this.p.frontier.pagesLimitReached = true;
      this.stopQueue('limit:pages', { requisitesToo: false });
    }
  }

  checkBytes(): void {
    const max = this.p.job.limits.maxBytes;
    if (max !== null && this.p.meter.counts.bytes >= max && this.stopReason === null) {
      this.stopQueue('limit:bytes', { requisitesToo: true });
    }
  }

  private stopQueue(reason: SkipReason, opts: { requisitesToo: boolean }): void {
    // Rows waiting for a retry are leased but not running: they are settled with the rest.
    const waiting = new Set(this.p.lanes.waitingRetries());
    const n = this.p.catalogue.skipQueued(reason, {
      keepRequisites: !opts.requisitesToo,
      except: [...this.p.lanes.leased].filter((id) => !waiting.has(id)),
    });
    if (opts.requisitesToo) this.stopReason = reason;
    this.p.meter.bulkSkipped(n, reason);
    this.p.lanes.dropBuffered(opts.requisitesToo);
    this.p.reached(reason);
  }
}
