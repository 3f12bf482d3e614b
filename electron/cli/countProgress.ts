/** Long jobs only: nothing is shown for the first second, so quick runs stay silent. */
const QUIET_START_MS = 1_000;
const TTY_EVERY_MS = 200;
const PLAIN_EVERY_MS = 5_000;
const BAR_WIDTH = 24;

/** "[#####.....] 35% <what> 3,500/10,000, about 12 s left" on stderr, redrawn in place on a terminal. */
export class CountProgress {
  private readonly started = Date.now();
  private lastMs = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly what: string,
    private readonly quiet: boolean,
  ) {}

  update(done: number, total: number): void {
    const now = Date.now();
    if (this.quiet || now - this.started < QUIET_START_MS) return;
    if (now - this.lastMs < (this.out.isTTY ? TTY_EVERY_MS : PLAIN_EVERY_MS) && done < total) return;
    this.lastMs = now;
    const text = formatCount(done, total, this.what, now - this.started);
    if (this.out.isTTY) {
      this.out.write(`\r${text.slice(0, (this.out.columns || 120) - 1)}\x1b[K`);
      this.drawn = true;
    } else this.out.write(text + '\n');
  }

  done(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

export function formatCount(done: number, total: number, what: string, elapsedMs: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const left = done > 0 && done < total ? `, about ${Math.ceil(((elapsedMs / done) * (total - done)) / 1000)} s left` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${what} ${done.toLocaleString('en')}/${total.toLocaleString('en')}${left}`;
}
