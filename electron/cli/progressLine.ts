import type { CrawlEvent, ProgressEvent } from '../../shared/crawl.js';

const BAR_WIDTH = 24;
/** Without a terminal (CI logs, pipes) a line every few seconds is plenty. */
const PLAIN_EVERY_MS = 5_000;

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
        this.out.write(`\r${format(e).slice(0, (this.out.columns || 120) - 1)}\x1b[K`);
        this.drawn = true;
      } else if (Date.now() - this.lastPlainMs >= PLAIN_EVERY_MS) {
        this.lastPlainMs = Date.now();
        this.out.write(format(e) + '\n');
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
    if (this.last) this.out.write(format(this.last) + '\n');
  }

  private clear(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

export function format(e: ProgressEvent): string {
  const c = e.counts;
  const done = c.archived + c.redirects + c.httpErrors + c.failed;
  const total = done + c.queued;
  const filled = total === 0 ? 0 : Math.round((BAR_WIDTH * done) / total);
  const bar = '#'.repeat(filled) + '.'.repeat(BAR_WIDTH - filled);
  return (
    `[${bar}] ${done}/${total} · ${c.archived} saved · ${c.httpErrors + c.failed} errors · ${c.skipped} skipped` +
    ` · ${(c.bytes / 1048576).toFixed(1)} MiB · ${e.urlsPerSec.toFixed(0)} URL/s · ${e.kbPerSec.toFixed(0)} KB/s · ${clock(e.elapsedMs)}` +
    (e.finishing ? ` · finishing ${e.finishing.done}/${e.finishing.total}` : '')
  );
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${hh > 0 ? `${hh}:` : ''}${String(mm).padStart(hh > 0 ? 2 : 1, '0')}:${String(ss).padStart(2, '0')}`;
}
