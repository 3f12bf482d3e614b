import { sleep } from '../fetch/retry-policy.js';
import { ClusterWorkerError } from './errors.js';

/**
 * A worker's link to the harvest database through an interruption (a restart, a stop, a network
 * cut): an operation that lost its connection is tried again with bounded back-off, the outage is
 * logged once when it begins (what the worker waits for, for how long at most) and once when it
 * ends, and past the bound the worker gives up with a message naming the cause.
 */

/** Socket errors, and PostgreSQL's connection-exception class (08) and shutdown codes (57P01-57P03). */
const LOST_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03']);
/** What pg says when the socket closed under a client (it carries no code). */
const LOST_MESSAGES = [/^Connection terminated/, /not queryable/, /^timeout exceeded when trying to connect/, /Connection terminated due to connection timeout/];

export function isConnectionLoss(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_CODES.has(code) || code.startsWith('08'))) return true;
  return LOST_MESSAGES.some((m) => m.test(e.message));
}

/** The first retry's wait, doubled per attempt up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 250;
/** Short beside any lease timeout (1 s at least): a worker back in time is never taken for dead. */
const MAX_RETRY_MS = 1_000;

export const DEFAULT_DB_WAIT_MS = 300_000;

export class DbLink {
  private since: number | null = null;

  constructor(
    /** How long an outage may last before the worker gives up. */
    private readonly boundMs: number,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the database is out now (an operation lost it and none has reached it since). */
  get down(): boolean {
    return this.since !== null;
  }

  /**
   * Notes a lost connection: the first logs what the worker does now; one past the bound throws the
   * ClusterWorkerError the worker stops with.
   */
  lost(e: Error, during: string): void {
    const t = this.now();
    if (this.since === null) {
      this.since = t;
      this.log(
        `lost the harvest database while ${during} (${describe(e)}): waiting for it to come back, trying again every ${MAX_RETRY_MS / 1000} s at most ` +
          `for up to ${Math.round(this.boundMs / 1000)} s; the batches in hand are kept and committed once it answers`,
      );
    }
    if (t - this.since >= this.boundMs) {
      throw new ClusterWorkerError(
        `the harvest database has not answered for ${Math.round((t - this.since) / 1000)} s (${describe(e)}): this worker gives up; ` +
          'the URLs it held return to the queue once another worker finds it silent (start it again with --db-wait-seconds to wait longer)',
      );
    }
  }

  /** An operation reached the database: an outage in course is over. */
  reached(): void {
    if (this.since === null) return;
    this.log(`the harvest database answers again after ${((this.now() - this.since) / 1000).toFixed(1)} s`);
    this.since = null;
  }

  /**
   * `fn` until it reaches the database (`during` names it in the log), waiting between tries;
   * other errors pass through, and so does the loss once `signal` aborts (the worker stopping).
   */
  async retry<T>(during: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await fn();
        this.reached();
        return out;
      } catch (e) {
        if (!isConnectionLoss(e) || signal?.aborted) throw e;
        this.lost(e as Error, during);
        await this.pause(attempt, signal).catch(() => {
          throw e;
        });
      }
    }
  }

  /** The wait before try `attempt + 1`; rejects when `signal` aborts. */
  pause(attempt: number, signal?: AbortSignal): Promise<void> {
    return sleep(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1)), signal ?? new AbortController().signal);
  }
}

function describe(e: Error): string {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
}
