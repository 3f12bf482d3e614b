import { beforeLargeBuffer } from '../memory/largeGarbage.js';
import type { ByteBudget } from './byteBudget.js';

/**
 * One URL's share of the crawl's memory for large bodies (see BodyRoom in fetch/exchange.ts), held
 * from the moment a body over 1 MiB is known until the URL is archived. A body that turns out larger
 * than it first said (a small gzip decoding to 50 MB) gives its share back and takes the larger one,
 * so two growing bodies never wait on each other.
 */
export class BodyShare {
  #giveBack: (() => void) | null = null;
  #held = 0;

  constructor(private readonly budget: ByteBudget) {}

  /** Resolves once the URL holds room for `bytes` (the whole budget when the size is unknown). */
  readonly room = async (bytes: number | null): Promise<void> => {
    const wanted = Math.min(bytes ?? this.budget.limit, this.budget.limit);
    if (this.#giveBack !== null && wanted <= this.#held) return;
    this.release();
    this.#held = wanted;
    const giveBack = await this.budget.take(wanted);
    this.#giveBack = giveBack;
    beforeLargeBuffer(bytes ?? this.budget.limit);
  };

  release(): void {
    this.#giveBack?.();
    this.#giveBack = null;
    this.#held = 0;
  }
}
