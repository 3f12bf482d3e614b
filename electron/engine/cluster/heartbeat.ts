import type pg from 'pg';
import { heartbeat } from './coordination.js';
import { ClusterWorkerError } from './errors.js';

/** What a heartbeat reports beside "alive": the worker's last batch size and mean fetch time. */
export interface PaceReport {
  batchSize: number;
  meanFetchMs: number | null;
}

/**
 * A worker's heartbeats, from its registration on: setting up (document workers, WARC files) can
 * outlast the lease timeout on a loaded machine, and a worker silent that long is declared dead.
 * Beats five times per timeout on a connection of their own, so batch commits holding every
 * connection of the work pool never delay them.
 */
export class Heartbeat {
  private readonly timer: NodeJS.Timeout;
  private pace: () => PaceReport = () => ({ batchSize: 0, meanFetchMs: null });
  /** A failure before attach() is kept for it. */
  private early: Error | null = null;
  private onFailure: (e: Error) => void = (e) => (this.early ??= e);

  constructor(db: pg.Pool, id: string, leaseTimeoutMs: number) {
    this.timer = setInterval(() => {
      const { batchSize, meanFetchMs } = this.pace();
      heartbeat(db, id, batchSize, meanFetchMs)
        .then((alive) => {
          if (!alive) this.onFailure(new ClusterWorkerError(`worker '${id}' was declared dead (no heartbeat within the timeout); it stops`));
        })
        .catch((e: unknown) => this.onFailure(e instanceof Error ? e : new Error(String(e))));
    }, Math.max(200, Math.floor(leaseTimeoutMs / 5)));
  }

  /** From now on, beats report `pace` and a failure (declared dead, database gone) goes to `onFailure`. */
  attach(pace: () => PaceReport, onFailure: (e: Error) => void): void {
    this.pace = pace;
    this.onFailure = onFailure;
    if (this.early !== null) onFailure(this.early);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
