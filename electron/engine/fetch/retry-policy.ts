import { abortError, FetchError } from './errors.js';

/** Statuses that mean "not now, try later" rather than a real answer about the URL. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Answers a crawl retries: rate limiting, a timed-out gateway, a server or proxy in trouble. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * How long a crawl waits before attempt `attempt + 1` of a URL whose attempt `attempt` ended so,
 * or null when the outcome is final: an answer, or an error that says the same next time (a refused
 * connection, broken framing, a body too large). Retry-After is honoured when the server sends one.
 */
export function retryWaitMs(
  outcome: FetchError | { status: number; headers: Readonly<Record<string, string>> },
  attempt: number,
  baseMs: number,
): number | null {
  if (outcome instanceof FetchError) return outcome.retryable ? backoffMs(attempt, baseMs) : null;
  if (!TRANSIENT_STATUSES.has(outcome.status)) return null;
  return retryAfterMs(outcome.headers['retry-after']) ?? backoffMs(attempt, baseMs);
}

/** What an outcome's record adds once a URL was tried more than once. */
export function attemptsNote(attempts: number): string {
  return attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
}

/** No single wait is longer than this, whatever the server asks for. */
export const MAX_RETRY_WAIT_MS = 60_000;

/**
 * Milliseconds a Retry-After header asks us to wait (delta-seconds or an HTTP-date), capped at
 * MAX_RETRY_WAIT_MS; null when absent or unreadable, so the caller falls back to back-off.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) {
    ms = Number(trimmed) * 1000;
  } else {
    // HTTP-dates always name the weekday; this keeps Date.parse from reading '-5' as a year.
    if (!/[a-z]/i.test(trimmed)) return null;
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return null;
    ms = Math.max(0, date - now);
  }
  return Math.min(ms, MAX_RETRY_WAIT_MS);
}

/**
 * Exponential back-off before retry number `retry` (1-based): base, 2×base, 4×base … with ±25%
 * jitter so many URLs failing together do not come back in lockstep; capped at MAX_RETRY_WAIT_MS.
 */
export function backoffMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = baseMs * 2 ** (retry - 1);
  return Math.min(Math.round(exponential * (0.75 + random() * 0.5)), MAX_RETRY_WAIT_MS);
}

/** Waits ms, or rejects with FetchError('aborted') as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
