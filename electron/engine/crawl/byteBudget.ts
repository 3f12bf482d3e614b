/**
 * A budget of bytes shared by concurrent tasks: each takes its share before it starts and gives it
 * back when done; one that does not fit waits, first come first served. A task larger than the
 * whole budget takes all of it, so it runs alone rather than never.
 */
export class ByteBudget {
  #free: number;
  readonly #waiting: { bytes: number; start: () => void }[] = [];

  constructor(readonly limit: number) {
    if (!(Number.isSafeInteger(limit) && limit > 0)) throw new RangeError(`a budget must be a positive integer: ${limit}`);
    this.#free = limit;
  }

  /** Bytes not taken. */
  get free(): number {
    return this.#free;
  }

  /** Waits for `bytes` of the budget; resolves with the function that gives them back (once). */
  async take(bytes: number): Promise<() => void> {
    const share = Math.min(Math.max(0, bytes), this.limit);
    if (this.#waiting.length > 0 || share > this.#free) {
      await new Promise<void>((start) => this.#waiting.push({ bytes: share, start }));
    } else {
      this.#free -= share;
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#free += share;
      this.#startWaiting();
    };
  }

  #startWaiting(): void {
    for (let next = this.#waiting[0]; next !== undefined && next.bytes <= this.#free; next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#free -= next.bytes;
      next.start();
    }
  }
}
