import { timeLeft } from './byteProgress.js';
import { StatusLine } from './statusLine.js';

const BAR_WIDTH = 24;

/** "[#####.....] 35% <what> 3,500/10,000, about 12 s left" on stderr, redrawn in place on a terminal. */
export class CountProgress {
  private readonly line: StatusLine;

  constructor(
    out: NodeJS.WriteStream,
    private readonly what: string,
    quiet: boolean,
  ) {
    this.line = new StatusLine(out, quiet);
  }

  update(done: number, total: number): void {
    this.line.draw((elapsedMs) => formatCount(done, total, this.what, elapsedMs), done >= total);
  }

  done(): void {
    this.line.done();
  }
}

export function formatCount(done: number, total: number, what: string, elapsedMs: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${what} ${done.toLocaleString('en')}/${total.toLocaleString('en')}${timeLeft(elapsedMs, done, total)}`;
}
