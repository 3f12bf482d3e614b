import { RATE_HISTORY_POINTS, type JobProgressHistory } from '../../shared/appViews.js';
import type { ProgressEvent } from '../../shared/crawl.js';

/** Each job's latest progress and its recent rates (the sparklines), from its run in this process. */
export class RateHistory {
  private readonly byJob = new Map<string, JobProgressHistory>();

  get(id: string): JobProgressHistory {
    return this.byJob.get(id) ?? { latest: null, history: [] };
  }

  remember(id: string, progress: ProgressEvent): void {
    const h = this.get(id);
    h.latest = progress;
    h.history.push({ urlsPerSec: progress.urlsPerSec, kbPerSec: progress.kbPerSec });
    if (h.history.length > RATE_HISTORY_POINTS) h.history.splice(0, h.history.length - RATE_HISTORY_POINTS);
    this.byJob.set(id, h);
  }

  delete(id: string): void {
    this.byJob.delete(id);
  }
}
