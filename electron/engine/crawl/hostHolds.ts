/**
 * Hosts a crawl must leave alone for a while, whatever URL it would ask next: one that sent
 * Retry-After (with a 429 or 503) is held until the time it named, since the server spoke for
 * itself, not for the one URL. Kept per crawl; the shared host gates keep the connection and delay
 * limits.
 */
export class HostHolds {
  readonly #until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Ms until `host` may be asked again; 0 when it is not held. */
  waitMs(host: string): number {
    const until = this.#until.get(host);
    if (until === undefined) return 0;
    const wait = until - this.now();
    if (wait <= 0) this.#until.delete(host);
    return Math.max(0, wait);
  }

  /** The host asked for `ms` of quiet (Retry-After): nothing goes to it before then. */
  retryAfter(host: string, ms: number): void {
    const until = this.now() + ms;
    if (until > (this.#until.get(host) ?? 0)) this.#until.set(host, until);
  }
}
