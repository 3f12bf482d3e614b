import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/** A file in the zip with what a WACZ's datapackage.json says of it. */
export interface ZipResource {
  path: string;
  hash: string;
  bytes: number;
}

/**
 * A zip file written as a stream with yazl, hashing (SHA-256) every entry on its way in, so a
 * manifest of the entries can be added last without reading anything twice. Files are opened one at
 * a time as yazl reaches them. The first error or an abort rejects `close()`.
 */
export class HashingZip {
  readonly #zip = new ZipFile();
  readonly #written: Promise<void>;
  readonly #entries: Promise<ZipResource>[] = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onBytes: (n: number) => void;
  #failure: ((e: unknown) => void) | null = null;
  readonly #failed: Promise<never>;

  constructor(outFile: string, opts: { signal?: AbortSignal; onBytes?: (n: number) => void }) {
    this.#signal = opts.signal;
    this.#onBytes = opts.onBytes ?? (() => {});
    this.#failed = new Promise<never>((_, reject) => {
      this.#failure = (e) => {
        reject(e);
        // Stops the output pipeline too, so the file is closed rather than left waiting on yazl.
        const out = this.#zip.outputStream;
        if (out instanceof Readable) out.destroy();
      };
    });
    this.#failed.catch(() => {}); // observed through close()
    this.#zip.on('error', (e: unknown) => this.#failure?.(e));
    this.#written = pipeline(this.#zip.outputStream, createWriteStream(outFile), { signal: opts.signal });
    this.#written.catch((e: unknown) => this.#failure?.(e));
  }

  /** Adds a file, STOREd when `compress` is false (already-gzipped WARCs and index blocks). */
  addFile(file: string, zipPath: string, compress: boolean): void {
    let settle!: { resolve: (r: ZipResource) => void; reject: (e: unknown) => void };
    const done = new Promise<ZipResource>((resolve, reject) => (settle = { resolve, reject }));
    done.catch((e: unknown) => this.#failure?.(e));
    this.#entries.push(done);
    this.#zip.addReadStreamLazy(zipPath, { compress, mtime: new Date() }, (cb) => {
      const hasher = this.#hasher(zipPath, settle.resolve);
      pipeline(createReadStream(file), hasher, { signal: this.#signal }).catch(settle.reject);
      cb(null, hasher);
    });
  }

  /** Adds a small in-memory file (the datapackage), compressed. */
  addBuffer(data: Buffer, zipPath: string): ZipResource {
    this.#zip.addBuffer(data, zipPath, { compress: true, mtime: new Date() });
    return { path: zipPath, hash: sha256(data), bytes: data.length };
  }

  /** Every file added so far, once it has gone through. */
  resources(): Promise<ZipResource[]> {
    return Promise.race([Promise.all(this.#entries), this.#failed]);
  }

  /** Finishes the zip and waits until it is written out. */
  async close(): Promise<void> {
    await this.resources();
    this.#zip.end();
    await Promise.race([this.#written, this.#failed]);
  }

  #hasher(zipPath: string, resolve: (r: ZipResource) => void): Transform {
    const hash = createHash('sha256');
    let bytes = 0;
    const onBytes = this.#onBytes;
    return new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        bytes += chunk.length;
        onBytes(chunk.length);
        cb(null, chunk);
      },
      flush(cb) {
        resolve({ path: zipPath, hash: `sha256:${hash.digest('hex')}`, bytes });
        cb();
      },
    });
  }
}

export function sha256(data: Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
