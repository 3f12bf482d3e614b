import { abortError } from './errors.js';

/** Statuses that mean "not now, try later" rather than a real answer about the URL. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

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
