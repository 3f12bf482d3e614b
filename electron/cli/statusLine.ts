/** Long jobs only: nothing is shown for the first second, so quick runs stay silent. */
const QUIET_START_MS = 1_000;
const TTY_EVERY_MS = 200;
const PLAIN_EVERY_MS = 5_000;

/**
 * One line of progress on stderr: redrawn in place on a terminal at most every 200 ms, a new line
 * every 5 s when written to a file or pipe, nothing in the first second or when quiet.
 */
export class StatusLine {
  readonly started = Date.now();
  private lastMs = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly quiet: boolean,
  ) {}

  /** Draws the line `text(elapsedMs)` gives, if it is time to; `last` draws it whatever the interval. */
  draw(text: (elapsedMs: number) => string, last = false): void {
    const now = Date.now();
    if (this.quiet || now - this.started < QUIET_START_MS) return;
    if (!last && now - this.lastMs < (this.out.isTTY ? TTY_EVERY_MS : PLAIN_EVERY_MS)) return;
    this.lastMs = now;
    const line = text(now - this.started);
    if (this.out.isTTY) {
      this.out.write(`\r${line.slice(0, (this.out.columns || 120) - 1)}\x1b[K`);
      this.drawn = true;
    } else this.out.write(line + '\n');
  }

  /** Clears a line drawn in place, so what follows starts on a clean line. */
  done(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}
