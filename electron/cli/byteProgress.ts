import { formatDuration } from '../../shared/format.js';
import { humanSize } from '../engine/export/bagInfo.js';

/** Long jobs only: nothing is shown for the first second, so quick runs stay silent. */
const QUIET_START_MS = 1_000;
const TTY_EVERY_MS = 200;
const PLAIN_EVERY_MS = 5_000;

/** Before this share of the bytes (or this long), the rate says too little for a time left. */
const ETA_AFTER_SHARE = 0.02;
const ETA_AFTER_MS = 5_000;

/**
 * ", about 3 min left": the time the bytes left take at the rate so far; empty while too little is
 * done to tell.
 */
export function timeLeft(elapsedMs: number, doneBytes: number, totalBytes: number): string {
  if (totalBytes <= 0 || doneBytes <= 0 || doneBytes >= totalBytes) return '';
  if (doneBytes / totalBytes < ETA_AFTER_SHARE && elapsedMs < ETA_AFTER_MS) return '';
  return `, about ${formatDuration((elapsedMs * (totalBytes - doneBytes)) / doneBytes)} left`;
}

/** "<phase>: 1.2 GB of 3.4 GB (35%, about 3 min left)" on stderr, redrawn in place on a terminal. */
export class ByteProgress {
  private readonly started = Date.now();
  private lastMs = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly quiet: boolean,
  ) {}

  update(p: { phase: string; doneBytes: number; totalBytes: number }): void {
    const now = Date.now();
    if (this.quiet || now - this.started < QUIET_START_MS) return;
    if (now - this.lastMs < (this.out.isTTY ? TTY_EVERY_MS : PLAIN_EVERY_MS)) return;
    this.lastMs = now;
    const of = p.totalBytes > 0 ? ` of ${humanSize(p.totalBytes)} (${Math.floor((100 * p.doneBytes) / p.totalBytes)}%${timeLeft(now - this.started, p.doneBytes, p.totalBytes)})` : '';
    const text = `${p.phase}: ${humanSize(p.doneBytes)}${of}`;
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
