/** The crawl loop's one timer for its next opening: the earliest time asked for wins. */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;
  private atMs = Infinity;

  constructor(private readonly wake: () => void) {}

  /** Wakes in `ms` (at least 1) unless a wake is already due sooner; Infinity asks for none. */
  after(ms: number): void {
    if (ms === Infinity) return;
    const at = Date.now() + Math.max(1, ms);
    if (this.timer !== null && this.atMs <= at) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.atMs = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.atMs = Infinity;
      this.wake();
    }, at - Date.now());
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
