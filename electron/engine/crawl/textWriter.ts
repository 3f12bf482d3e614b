import type { PackedText } from '../store/packedText.js';
import type { TextIndex, TextPlace } from '../store/textIndex.js';

/** Longest a saved document's text waits in a document worker before it is committed. */
const FLUSH_AFTER_MS = 1_000;
/**
 * Most text that waits for a commit (its characters and compressed bytes): past it a commit starts
 * at once. Twenty 8 MB pages saved within one second waited here together, some 160 MB.
 */
const FLUSH_AFTER_CHARS = 4 * 1024 * 1024;

/**
 * A document worker's share of the crawl's search index: the texts of the documents it saved,
 * committed by the worker itself, so that they never travel to the crawl's thread (each page's text
 * crossed it twice, and its FTS5 insert ran there). Several workers write the one file (WAL, one
 * writer at a time, each waiting its turn); a kill loses at most the last second's texts, which the
 * crawl indexes from the archive when it completes (indexMissing).
 */
export class TextWriter {
  private index: Promise<TextIndex> | null = null;
  private pending: { place: TextPlace; text: PackedText }[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | null = null;
  /** A failed commit, reported at the next flush (the texts are then indexed when the crawl completes). */
  private failure: Error | null = null;

  constructor(private readonly file: string) {}

  add(place: TextPlace, text: PackedText): void {
    this.pending.push({ place, text });
    this.pendingChars += charsOf(text);
    if (this.pendingChars > FLUSH_AFTER_CHARS) void this.commit(false, true);
    else this.timer ??= setTimeout(() => void this.commit(false, true), FLUSH_AFTER_MS);
  }

  /** Commits every queued text; `release` also closes the connection (the crawl is stopping). Throws a commit's failure. */
  async flush(release = false): Promise<void> {
    await this.commit(release);
    const failure = this.failure;
    this.failure = null;
    if (failure !== null) throw failure;
  }

  /** `waitIfBusy`: a timed commit that finds the index held by another writer leaves its texts for the next one. */
  private async commit(release: boolean, waitIfBusy = false): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0 && this.index === null) return;
    // Taken at once: texts saved while the index opens wait for the next commit.
    const rows = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    try {
      // Loaded only once there is text: the index's module brings SQLite into the worker.
      const opening = (this.index ??= import('../store/textIndex.js').then(({ TextIndex }) => TextIndex.openWritable(this.file)));
      // One that failed to open is opened again by the next commit.
      const index = await opening.catch((e: unknown) => {
        this.index = null;
        throw e;
      });
      for (const { place, text } of rows) index.add({ ...place, text });
      if (release) {
        this.index = null;
        index.release();
      } else index.flush();
    } catch (e) {
      // Another writer held the index past the busy timeout (seen with the machine's two cores
      // taken by some 25 other processes): the texts wait for the next commit, which files them
      // again harmlessly if some went in (a text is kept once by its digest, a URL's row replaced).
      if (waitIfBusy && isBusy(e)) {
        this.pending = rows.concat(this.pending);
        this.pendingChars = this.pending.reduce((n, r) => n + charsOf(r.text), 0);
        this.timer ??= setTimeout(() => void this.commit(false, true), FLUSH_AFTER_MS);
        return;
      }
      this.failure ??= e instanceof Error ? e : new Error(String(e));
    }
  }
}

function charsOf(text: PackedText): number {
  return text.title.length + text.headings.length + text.body.length + text.bodyZ.byteLength;
}

function isBusy(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'SQLITE_BUSY';
}
