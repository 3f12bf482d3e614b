import type pg from 'pg';
import { heartbeat } from './coordination.js';
import { isConnectionLoss, type DbLink } from './dbLink.js';
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
 * connection of the work pool never delay them. While the database is out of reach they go on
 * beating (see DbLink), so the first one after its return tells the others this worker lives.
 */
export class Heartbeat {
  private readonly timer: NodeJS.Timeout;
  private pace: () => PaceReport = () => ({ batchSize: 0, meanFetchMs: null });
  /** A failure before attach() is kept for it. */
  private early: Error | null = null;
  private onFailure: (e: Error) => void = (e) => (this.early ??= e);

  /** A beat still waiting for its answer: the next one is skipped rather than piled up behind it. */
  private beating = false;

  constructor(db: pg.Pool, id: string, leaseTimeoutMs: number, link: DbLink) {
    this.timer = setInterval(() => {
      if (this.beating) return;
      this.beating = true;
      const { batchSize, meanFetchMs } = this.pace();
      heartbeat(db, id, batchSize, meanFetchMs)
        .then((alive) => {
          link.reached();
          if (!alive) this.onFailure(new ClusterWorkerError(`worker '${id}' was declared dead (no heartbeat within the timeout); it stops`));
        })
        .catch((e: unknown) => {
          // The database out of reach: beats go on until it answers, or the link gives up (it throws then).
          if (isConnectionLoss(e)) link.lost(e as Error, 'sending its heartbeat');
          else throw e;
        })
        .catch((e: unknown) => this.onFailure(e instanceof Error ? e : new Error(String(e))))
        .finally(() => (this.beating = false));
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
