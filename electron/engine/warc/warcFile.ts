import { createReadStream, createWriteStream, writeSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WarcError } from './errors.js';
import { OPEN_SUFFIX } from './fileNames.js';
import { memberAt, scanGzipMembers, type GzipMember } from './gzipMembers.js';
import type { WarcRepair } from './types.js';

/**
 * Appends up to this size are written synchronously: a write of a few kilobytes into the page
 * cache takes microseconds, less than the thread-pool round trip and promise of an async one.
 */
const SYNC_WRITE_BYTES = 256 * 1024;

/**
 * One WARC file being written: appended to in place under `<name>.open`, renamed to `<name>` when
 * sealed, so a file under its finished name never changes again.
 */
export class WarcFile {
  #size: number;
  /** Set when a failed write could not be undone: appending after a torn record would bury it. */
  #broken: Error | null = null;

  private constructor(
    readonly dir: string,
    /** The finished name. */
    readonly name: string,
    private readonly fh: FileHandle,
    size: number,
  ) {
    this.#size = size;
  }

  /** A new, empty file; fails if the name is taken. */
  static async create(dir: string, name: string): Promise<WarcFile> {
    const fh = await open(path.join(dir, name + OPEN_SUFFIX), 'wx');
    return new WarcFile(dir, name, fh, 0);
  }

  /**
   * An unfinished file, checked member by member from `checkpoint` (an offset up to which it was
   * known to hold complete members; 0 to check it all) and returned with its first member. A
   * damaged or incomplete tail (the process was killed mid-write) is cut off so appending continues
   * from the last complete record; the cut bytes are kept beside it in `<name>.cut-<offset>`, in
   * case the damage was not at the end alone.
   */
  static async reopen(
    dir: string,
    name: string,
    checkpoint: number,
  ): Promise<{ file: WarcFile; first: GzipMember | null; repair: WarcRepair | null }> {
    const openPath = path.join(dir, name + OPEN_SUFFIX);
    const fh = await open(openPath, 'r+');
    try {
      const first = await memberAt(fh, 0);
      const { size } = await fh.stat();
      // A checkpoint past the end (the file lost data the checkpoint outlived) is not trusted.
      const from = first !== null && checkpoint >= first.length && checkpoint <= size ? checkpoint : 0;
      const scan = await scanGzipMembers(fh, () => {}, from);
      let repair: WarcRepair | null = null;
      if (scan.end < scan.size) {
        const savedAs = `${name}.cut-${scan.end}`;
        await pipeline(createReadStream(openPath, { start: scan.end }), createWriteStream(path.join(dir, savedAs)));
        await fh.truncate(scan.end);
        repair = { file: name, cutAt: scan.end, bytesCut: scan.size - scan.end, savedAs };
      }
      return { file: new WarcFile(dir, name, fh, scan.end), first: scan.end > 0 ? first : null, repair };
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Writes the bytes at the end of the file; returns where they start. */
  async append(bytes: Buffer): Promise<number> {
    if (this.#broken) throw new WarcError('io', `${this.name} is damaged by an earlier failed write`, { cause: this.#broken });
    const offset = this.#size;
    try {
      let written = 0;
      while (written < bytes.length) {
        written +=
          bytes.length <= SYNC_WRITE_BYTES
            ? writeSync(this.fh.fd, bytes, written, bytes.length - written, offset + written)
            : (await this.fh.write(bytes, written, bytes.length - written, offset + written)).bytesWritten;
      }
    } catch (e) {
      // Cut back to the last complete record, so a later write does not follow a torn one.
      await this.fh.truncate(offset).catch((undo: unknown) => {
        this.#broken = undo instanceof Error ? undo : new Error(String(undo));
      });
      throw new WarcError('io', `cannot write to ${this.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    this.#size += bytes.length;
    return offset;
  }

  /** Flushes to disk, closes and gives the file its finished name. */
  async seal(): Promise<void> {
    try {
      await this.fh.sync();
    } finally {
      await this.fh.close();
    }
    await rename(path.join(this.dir, this.name + OPEN_SUFFIX), path.join(this.dir, this.name));
  }

  /** Closes and deletes the file: for one left empty. */
  async discard(): Promise<void> {
    await this.fh.close();
    await rm(path.join(this.dir, this.name + OPEN_SUFFIX));
  }
}
