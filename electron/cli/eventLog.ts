import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import type { CrawlEvent } from '../../shared/crawl.js';

/** One line of an events file: the event the UI would get, stamped with the wall-clock time it was emitted. */
export type LoggedEvent<E extends object = CrawlEvent> = E & { t: number };

/**
 * Appends every crawl event (progress, url, state) to a file as JSON lines, for benchmarks and
 * scripts. Writes go through a buffered stream so the crawl loop never waits on the disk.
 */
export class EventLog<E extends object = CrawlEvent> {
  private readonly out: WriteStream;
  private failure: Error | null = null;

  /** Opens (appends to) the file at once, so a bad path fails before the crawl starts. */
  constructor(file: string) {
    this.out = createWriteStream(file, { fd: openSync(file, 'a') });
    this.out.on('error', (e) => (this.failure = e));
  }

  write(e: E, now: number = Date.now()): void {
    if (this.failure) return;
    this.out.write(JSON.stringify({ t: now, ...e } satisfies LoggedEvent<E>) + '\n');
  }

  /** Flushes and closes the file; rejects if any write failed. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.out.once('close', () => (this.failure ? reject(this.failure) : resolve()));
      this.out.end();
    });
  }
}
