import { formatDuration } from '../../../shared/format.js';

/** The first wait after a host stops answering; each further refusal doubles it, up to the next. */
const OUTAGE_FIRST_WAIT_MS = 1_000;
const OUTAGE_MAX_WAIT_MS = 30_000;
/** How long a crawl waits for a host that stopped answering before it records its URLs as failed. */
export const DEFAULT_OUTAGE_LIMIT_MS = 5 * 60_000;

/** A host coming and going is reported at most this often. */
const OUTAGE_REPORT_GAP_MS = 60_000;

interface Outage {
  sinceMs: number;
  /** Whether the archivist was told of this outage (and so is told when it ends). */
  said: boolean;
  /** Nothing goes to the host before this (0 once the crawl gave up waiting). */
  untilMs: number;
  step: number;
}

export interface HostHoldOptions {
  /** Longest wait for a host that stopped answering; default DEFAULT_OUTAGE_LIMIT_MS. */
  outageLimitMs?: number;
  /** Tells the archivist a host stopped answering, came back, or was given up. */
  say: (message: string) => void;
  now?: () => number;
}

/**
 * Hosts a crawl must leave alone for a while, whatever URL it would ask next. One that sent
 * Retry-After (with a 429 or 503) is held until the time it named: the server spoke for itself,
 * not for the one URL. One that answered earlier in the run and now refuses connections (a restart,
 * a short outage) is held with a doubling back-off, its URLs waiting rather than failing, until it
 * answers again or has been silent for the outage limit. Kept per crawl; the shared host gates
 * keep the connection and delay limits.
 */
export class HostHolds {
  readonly #until = new Map<string, number>();
  readonly #outages = new Map<string, Outage>();
  /** Hosts that have answered in this run: a host never reached is a mistake or a dead host, not an outage. */
  readonly #answered = new Set<string>();
  /** When each host's last outage was reported. */
  readonly #reportedMs = new Map<string, number>();
  readonly #limitMs: number;
  readonly #say: (message: string) => void;
  readonly #now: () => number;

  constructor(opts: HostHoldOptions) {
    this.#limitMs = opts.outageLimitMs ?? DEFAULT_OUTAGE_LIMIT_MS;
    this.#say = opts.say;
    this.#now = opts.now ?? Date.now;
  }

  /** Ms until `host` may be asked again; 0 when it is not held. */
  waitMs(host: string): number {
    const now = this.#now();
    const until = Math.max(this.#until.get(host) ?? 0, this.#outages.get(host)?.untilMs ?? 0);
    if (until <= now) this.#until.delete(host);
    return Math.max(0, until - now);
  }

  /** The host asked for `ms` of quiet (Retry-After): nothing goes to it before then. */
  retryAfter(host: string, ms: number): void {
    const until = this.#now() + ms;
    if (until > (this.#until.get(host) ?? 0)) this.#until.set(host, until);
  }

  /** The host answered (any HTTP status): an outage is over. */
  answered(host: string): void {
    this.#answered.add(host);
    const outage = this.#outages.get(host);
    if (outage === undefined) return;
    this.#outages.delete(host);
    if (outage.said) this.#say(`${host} answers again after ${formatDuration(this.#now() - outage.sinceMs)}; carrying on`);
  }

  /**
   * A request found the host not answering (`reason`). Returns ms to wait before its URL is tried
   * again, or null when it is to be recorded as failed: the host never answered in this run, or has
   * been silent for longer than the outage limit.
   */
  unreachable(host: string, reason: string): number | null {
    if (!this.#answered.has(host)) return null;
    const now = this.#now();
    let outage = this.#outages.get(host);
    if (outage === undefined) {
      outage = { sinceMs: now, said: now - (this.#reportedMs.get(host) ?? -Infinity) >= OUTAGE_REPORT_GAP_MS, untilMs: 0, step: 0 };
      this.#outages.set(host, outage);
      if (outage.said) {
        this.#reportedMs.set(host, now);
        this.#say(`${host} is not answering (${reason}); its URLs wait for it, for up to ${formatDuration(this.#limitMs)}`);
      }
    }
    const giveUpAtMs = outage.sinceMs + this.#limitMs;
    if (now >= giveUpAtMs) {
      if (outage.step >= 0) this.#say(`${host} has not answered for ${formatDuration(now - outage.sinceMs)}; its URLs are recorded as failed (harvest resume --retry-failed tries them again)`);
      outage.step = -1;
      outage.untilMs = 0;
      return null;
    }
    // Requests that were on their way when the host went are refused together: one back-off step.
    if (now >= outage.untilMs) {
      outage.step += 1;
      outage.untilMs = Math.min(now + Math.min(OUTAGE_FIRST_WAIT_MS * 2 ** (outage.step - 1), OUTAGE_MAX_WAIT_MS), giveUpAtMs);
    }
    return Math.max(1, outage.untilMs - now);
  }
}
