import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { OPEN_SUFFIX, warcFileName } from '../warc/fileNames.js';
import type { RecordPlace } from '../warc/types.js';

const WRITE_BYTES = 1024 * 1024;

/** The prefix of the archive's WARC files that hold imported records. */
export const IMPORT_PREFIX = 'import';

/**
 * One WARC file of the archive holding the records of one imported file, each as its own gzip
 * member (what every reader of the archive expects): a record that was a member of its own in the
 * source is copied byte for byte; any other (a plain WARC, several records to a member) is the
 * record's bytes unchanged in a new member. Written under `.open` and renamed when finished, as the
 * crawl's WARC writer does. Named with its capture's start, so the exports give it to that capture.
 */
export class WarcCopy {
  private size: number;
  /** Members appended and not yet written: written a megabyte at a time, not a system call each. */
  private queued: Buffer[] = [];
  private queuedBytes = 0;
  private written: number;

  private constructor(
    private readonly fh: FileHandle,
    private readonly dir: string,
    readonly name: string,
    bytes: number,
  ) {
    this.size = bytes;
    this.written = bytes;
  }

  static async create(dir: string, createdAt: Date, serial: number): Promise<WarcCopy> {
    const name = warcFileName(IMPORT_PREFIX, createdAt, serial);
    await mkdir(dir, { recursive: true });
    const fh = await open(path.join(dir, name + OPEN_SUFFIX), 'wx');
    return new WarcCopy(fh, dir, name, 0);
  }

  /**
   * Opens again a file an interrupted import was writing, cut back to `bytes`, what its catalogue
   * committed: records copied after that are copied again. A file renamed as finished before its
   * progress was committed is taken back.
   */
  static async resume(dir: string, name: string, bytes: number): Promise<WarcCopy> {
    const openPath = path.join(dir, name + OPEN_SUFFIX);
    if (!(await exists(openPath)) && (await exists(path.join(dir, name)))) await rename(path.join(dir, name), openPath);
    const fh = await open(openPath, 'r+');
    await fh.truncate(bytes);
    return new WarcCopy(fh, dir, name, bytes);
  }

  /**
   * Tidies the import's WARC files after an interruption: a file whose reading was committed as done
   * gets its finished name, and an unfinished one the catalogue does not name (made after the last
   * commit) is deleted. `committed` maps each file the catalogue names to whether it is done.
   */
  static async tidy(dir: string, committed: ReadonlyMap<string, boolean>): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const entry of names) {
      if (!entry.startsWith(`${IMPORT_PREFIX}-`) || !entry.endsWith(OPEN_SUFFIX)) continue;
      const name = entry.slice(0, -OPEN_SUFFIX.length);
      const done = committed.get(name);
      if (done === undefined) await rm(path.join(dir, entry));
      else if (done) await rename(path.join(dir, entry), path.join(dir, name));
    }
  }

  /** Adds a record; where it will be is known at once, but it is in the file only after flush(). */
  async append(content: Buffer, member: Buffer | null): Promise<RecordPlace> {
    const bytes = member ?? gzipSync(content, { level: 1 });
    const place = { file: this.name, offset: this.size, length: bytes.length };
    this.queued.push(bytes);
    this.queuedBytes += bytes.length;
    this.size += bytes.length;
    if (this.queuedBytes >= WRITE_BYTES) await this.flush();
    return place;
  }

  /** Writes what append() queued, so that the records appended so far can be read back. */
  async flush(): Promise<void> {
    if (this.queued.length === 0) return;
    const bytes = Buffer.concat(this.queued, this.queuedBytes);
    this.queued = [];
    this.queuedBytes = 0;
    await this.fh.write(bytes, 0, bytes.length, this.written);
    this.written += bytes.length;
  }

  get bytes(): number {
    return this.size;
  }

  /** Writes what is queued and closes the file; publish() then gives it its finished name. */
  async close(): Promise<void> {
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
  }

  /** Renames the closed file as finished: once the catalogue has committed that it is. */
  async publish(): Promise<void> {
    await rename(path.join(this.dir, this.name + OPEN_SUFFIX), path.join(this.dir, this.name));
  }

  /** Closes the file unfinished (a paused or failed import), its queued records written. */
  async abandon(): Promise<void> {
    await this.flush().finally(() => this.fh.close());
  }
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}
