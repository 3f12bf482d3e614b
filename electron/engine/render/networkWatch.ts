/**
 * Counts a page's requests in progress. Every request goes through the renderer's route handler,
 * so this sees all of them: "idle" means none in progress for a quiet period, not a guess.
 */
export class NetworkWatch {
  private pending = 0;
  private lastChangeMs = Date.now();
  /** Waits woken by a request starting or ending. */
  private readonly waiting = new Set<() => void>();

  started(): void {
    this.changed(1);
  }

  finished(): void {
    this.changed(-1);
  }

  /**
   * Resolves once no request has been in progress for `quietMs`, or after `maxMs` at most;
   * returns whether the network went quiet. Waits at least `graceMs` in any case: what the page
   * just did (a scroll) may start requests a moment later. Woken by the requests themselves and
   * by a timer set to the moment the quiet period ends, not by polling: a render settles several
   * times, and each wait ends when it is due.
   */
  async idle(quietMs: number, maxMs: number, graceMs: number, signal?: AbortSignal): Promise<boolean> {
    const start = Date.now();
    const until = start + Math.max(0, maxMs);
    const quietFrom = start + Math.min(graceMs, quietMs) - quietMs;
    for (;;) {
      const now = Date.now();
      const quietAt = Math.max(this.lastChangeMs, quietFrom) + quietMs;
      if (this.pending === 0 && now >= quietAt) return true;
      if (now >= until) return false;
      await this.change((this.pending === 0 ? Math.min(quietAt, until) : until) - now, signal);
    }
  }

  private changed(by: number): void {
    this.pending += by;
    this.lastChangeMs = Date.now();
    for (const wake of [...this.waiting]) wake();
  }

  /** Resolves at the next request starting or ending, or after `ms`; rejects when `signal` aborts. */
  private change(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        signal?.removeEventListener('abort', abort);
      };
      const wake = () => (done(), resolve());
      const abort = () => (done(), reject(signal!.reason));
      const timer = setTimeout(wake, ms);
      this.waiting.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
