import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
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
  private size = 0;
  /** Members appended and not yet written: written a megabyte at a time, not a system call each. */
  private queued: Buffer[] = [];
  private queuedBytes = 0;
  private written = 0;

  private constructor(
    private readonly fh: FileHandle,
    private readonly dir: string,
    readonly name: string,
  ) {}

  static async create(dir: string, createdAt: Date, serial: number): Promise<WarcCopy> {
    const name = warcFileName(IMPORT_PREFIX, createdAt, serial);
    await mkdir(dir, { recursive: true });
    const fh = await open(path.join(dir, name + OPEN_SUFFIX), 'wx');
    return new WarcCopy(fh, dir, name);
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

  async finish(): Promise<void> {
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
    await rename(path.join(this.dir, this.name + OPEN_SUFFIX), path.join(this.dir, this.name));
  }
}
