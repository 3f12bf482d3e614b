import type { Archive } from '../store/archive.js';

/** How often the crawl time is checkpointed, so a killed crawl still counts most of its time. */
const DURATION_CHECKPOINT_MS = 5_000;
/**
 * How often the catalogue's log is copied into the database, right after a progress event: about a
 * second of crawling makes a checkpoint of some 100 ms, well inside the gap to the next event.
 */
const WAL_CHECKPOINT_MS = 1_000;

export interface ProgressTickParts {
  archive: Archive;
  /** Progress event period. */
  intervalMs: number;
  /** Crawl time of the earlier runs. */
  priorDurationMs: number;
  /** Emits a progress event. */
  report: () => void;
  /** Called after each catalogue checkpoint, about once a second. */
  afterCheckpoint: () => void;
  /** A tick's write that failed (a full disk, a moved folder) stops the crawl. */
  fail: (e: unknown) => void;
}

/**
 * A running crawl's clock and periodic work: a progress event each interval, the crawl time
 * checkpointed into the catalogue, and the catalogue's log copied into its database.
 */
export class ProgressTicks {
  private timer: NodeJS.Timeout | null = null;
  private runStartedMs = 0;
  private lastProgressMs = 0;
  private lastDurationCheckpointMs = 0;
  private lastWalCheckpointMs = 0;

  constructor(private readonly p: ProgressTickParts) {}

  /** Crawl time over every run so far, this one included. */
  elapsedMs(): number {
    return this.p.priorDurationMs + (this.runStartedMs ? Date.now() - this.runStartedMs : 0);
  }

  start(): void {
    this.runStartedMs = Date.now();
    this.lastDurationCheckpointMs = this.runStartedMs;
    this.lastWalCheckpointMs = this.runStartedMs;
    this.timer = setInterval(() => this.tick(), this.p.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Ticks now if the timer's turn is overdue: a busy event loop can hold it past the promised period. */
  tickIfDue(): void {
    if (this.timer !== null && Date.now() - this.lastProgressMs >= this.p.intervalMs) this.tick();
  }

  private tick(): void {
    const now = Date.now();
    this.lastProgressMs = now;
    // Run from a timer: a write that fails here (a full disk) must stop the crawl, not the process.
    try {
      // Before anything is written this tick: a folder moved since the last one stops the crawl.
      this.p.archive.checkFolder();
      if (now - this.lastDurationCheckpointMs >= DURATION_CHECKPOINT_MS) {
        this.lastDurationCheckpointMs = now;
        this.p.archive.catalogue.setMeta('duration_ms', String(this.elapsedMs()));
      }
      this.p.report();
      if (now - this.lastWalCheckpointMs >= WAL_CHECKPOINT_MS) {
        this.p.archive.catalogue.checkpoint();
        this.lastWalCheckpointMs = Date.now();
        this.p.afterCheckpoint();
      }
    } catch (e) {
      this.p.fail(e);
    }
  }
}
