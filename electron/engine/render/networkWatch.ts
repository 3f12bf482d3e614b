import { setTimeout as sleep } from 'node:timers/promises';

/** How often the watch looks at its counters while waiting. */
const POLL_MS = 20;

/**
 * Counts a page's requests in progress. Every request goes through the renderer's route handler,
 * so this sees all of them: "idle" means none in progress for a quiet period, not a guess.
 */
export class NetworkWatch {
  private pending = 0;
  private lastChangeMs = Date.now();

  started(): void {
    this.pending++;
    this.lastChangeMs = Date.now();
  }

  finished(): void {
    this.pending--;
    this.lastChangeMs = Date.now();
  }

  /**
   * Resolves once no request has been in progress for `quietMs`, or after `maxMs` at most;
   * returns whether the network went quiet. Waits at least `graceMs` in any case: what the page
   * just did (a scroll) may start requests a moment later.
   */
  async idle(quietMs: number, maxMs: number, graceMs: number, signal?: AbortSignal): Promise<boolean> {
    const start = Date.now();
    const until = start + Math.max(0, maxMs);
    const quietFrom = start + Math.min(graceMs, quietMs) - quietMs;
    for (;;) {
      const now = Date.now();
      if (this.pending === 0 && now - Math.max(this.lastChangeMs, quietFrom) >= quietMs) return true;
      if (now >= until) return false;
      await sleep(Math.min(POLL_MS, until - now), undefined, signal ? { signal } : undefined);
    }
  }
}
