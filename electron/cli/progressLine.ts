import type { CrawlEvent, ProgressEvent } from '../../shared/crawl.js';
import { formatByteRate, formatBytes, formatClock, formatCount, formatTimeLeft, plural, progressFigures } from '../../shared/format.js';

const BAR_WIDTH = 24;
/** Without a terminal (CI logs, pipes) a line every few seconds is plenty. */
const PLAIN_EVERY_MS = 5_000;
/** Log files have no width: every figure is written. */
const UNLIMITED = 1_000;

/** The crawl's progress on one terminal line, redrawn in place. */
export class ProgressLine {
  private last: ProgressEvent | null = null;
  private lastPlainMs = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly quiet: boolean,
  ) {}

  update(e: CrawlEvent): void {
    if (this.quiet) return;
    if (e.type === 'progress') {
      this.last = e;
      if (this.out.isTTY) {
        this.out.write(`\r${format(e, this.out.columns || 120)}\x1b[K`);
        this.drawn = true;
      } else if (Date.now() - this.lastPlainMs >= PLAIN_EVERY_MS) {
        this.lastPlainMs = Date.now();
        this.out.write(format(e, UNLIMITED) + '\n');
      }
    } else if (e.type === 'state' && e.message) {
      this.note(`${e.state}: ${e.message}`);
    }
  }

  note(text: string): void {
    if (this.quiet) return;
    this.clear();
    this.out.write(text + '\n');
  }

  done(): void {
    if (this.quiet) return;
    this.clear();
    if (this.last) this.out.write(format(this.last, this.out.isTTY ? this.out.columns || 120 : UNLIMITED) + '\n');
  }

  private clear(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** Parts of the line, most important first; the least important go when the terminal is narrow. */
function parts(e: ProgressEvent): string[] {
  const c = e.counts;
  const f = progressFigures(c, e.urlsPerSec, e.elapsedMs);
  return [
    `${f.percent}% of ${formatCount(f.fetched + f.remaining)} known`,
    `${formatRate(e.urlsPerSec)} URL/s`,
    formatClock(e.elapsedMs),
    f.etaMs === null ? 'ETA …' : `ETA ${formatTimeLeft(f.etaMs)}`,
    e.finishing ? `finishing ${formatCount(e.finishing.done)}/${formatCount(e.finishing.total)}` : '',
    `${formatCount(c.archived)} archived`,
    `${formatCount(c.failed)} failed`,
    plural(c.httpErrors, 'HTTP error'),
    formatBytes(c.bytes),
    formatByteRate(e.kbPerSec * 1024),
    `${formatCount(c.skipped)} skipped`,
  ];
}

/** The order in which parts are shown, left to right (indexes into parts()). */
const SHOWN_ORDER = [0, 5, 6, 7, 10, 8, 1, 9, 3, 2, 4];
const SEP = ' · ';

/**
 * The progress line in at most `columns - 1` characters: the bar shrinks first, then the least
 * important figures go (skipped, byte rate, bytes, ...); percentage, URL rate, elapsed time and ETA
 * stay down to about 50 columns.
 */
export function format(e: ProgressEvent, columns = 120): string {
  const all = parts(e);
  const max = Math.max(20, columns - 1);
  const kept = new Set(all.map((_, i) => i));
  const text = () =>
    SHOWN_ORDER.filter((i) => kept.has(i) && all[i] !== '')
      .map((i) => all[i]!)
      .join(SEP);
  while (text().length > max && kept.size > 1) kept.delete(Math.max(...kept));
  const line = text().slice(0, max);
  const room = max - line.length - 3;
  if (room < 8) return line;
  const width = Math.min(BAR_WIDTH, room);
  const f = progressFigures(e.counts, e.urlsPerSec, e.elapsedMs);
  const filled = Math.round(width * f.fraction);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line}`;
}

function formatRate(n: number): string {
  return n < 10 ? n.toFixed(1) : formatCount(n);
}
