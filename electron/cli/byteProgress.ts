import { formatDuration } from '../../shared/format.js';
import { humanSize } from '../engine/export/bagInfo.js';
import { StatusLine } from './statusLine.js';

/** Before this share of the work (or this long), the rate says too little for a time left. */
const ETA_AFTER_SHARE = 0.02;
const ETA_AFTER_MS = 5_000;

/**
 * ", about 3 min left": the time the work left takes at the rate so far; empty while too little is
 * done to tell.
 */
export function timeLeft(elapsedMs: number, done: number, total: number): string {
  if (total <= 0 || done <= 0 || done >= total) return '';
  if (done / total < ETA_AFTER_SHARE && elapsedMs < ETA_AFTER_MS) return '';
  return `, about ${formatDuration((elapsedMs * (total - done)) / done)} left`;
}

/** "<phase>: 1.2 GB of 3.4 GB (35%, about 3 min left)" on stderr, redrawn in place on a terminal. */
export class ByteProgress {
  private readonly line: StatusLine;

  constructor(out: NodeJS.WriteStream, quiet: boolean) {
    this.line = new StatusLine(out, quiet);
  }

  update(p: { phase: string; doneBytes: number; totalBytes: number }): void {
    this.line.draw((elapsedMs) => {
      const of = p.totalBytes > 0 ? ` of ${humanSize(p.totalBytes)} (${Math.floor((100 * p.doneBytes) / p.totalBytes)}%${timeLeft(elapsedMs, p.doneBytes, p.totalBytes)})` : '';
      return `${p.phase}: ${humanSize(p.doneBytes)}${of}`;
    });
  }

  done(): void {
    this.line.done();
  }
}
