import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Digest algorithms BagIt manifests name (RFC 8493 section 2.4) that node:crypto provides. */
export const MANIFEST_ALGORITHMS = ['sha512', 'sha256', 'sha1', 'md5'] as const;
export type ManifestAlgorithm = (typeof MANIFEST_ALGORITHMS)[number];

export function isManifestAlgorithm(s: string): s is ManifestAlgorithm {
  return (MANIFEST_ALGORITHMS as readonly string[]).includes(s);
}

/** Passes bytes through unchanged while feeding them to hashes and counting them. */
class Digester extends Transform {
  private readonly hashes: Hash[];
  bytes = 0;

  constructor(
    readonly algorithms: readonly string[],
    private readonly onBytes?: (n: number) => void,
  ) {
    super();
    this.hashes = algorithms.map((a) => createHash(a));
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null, data?: Buffer) => void): void {
    for (const h of this.hashes) h.update(chunk);
    this.bytes += chunk.length;
    this.onBytes?.(chunk.length);
    cb(null, chunk);
  }

  /** Hex digest per algorithm; call once, after the stream ended. */
  digests(): Record<string, string> {
    return Object.fromEntries(this.algorithms.map((a, i) => [a, this.hashes[i]!.digest('hex')]));
  }
}

export interface Digested {
  bytes: number;
  /** Hex digest by algorithm name. */
  digests: Record<string, string>;
}

export interface HashOptions {
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
  /** Also reads the bytes for something else in the same pass (it must consume all of them). */
  consume?: (bytes: AsyncIterable<Buffer>) => Promise<void>;
}

/** Hashes a stream with several algorithms in one pass. */
export async function hashStream(input: Readable, algorithms: readonly string[], opts: HashOptions = {}): Promise<Digested> {
  const d = new Digester(algorithms, opts.onBytes);
  const discard = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const _ of source) {
      // Bytes are consumed only for their digests.
    }
  };
  await pipeline(input, d, opts.consume ?? discard, { signal: opts.signal });
  return { bytes: d.bytes, digests: d.digests() };
}

export function hashFile(file: string, algorithms: readonly string[], opts: HashOptions = {}): Promise<Digested> {
  return hashStream(createReadStream(file), algorithms, opts);
}

/** Copies `src` to a new file `dst`, hashing the bytes as they pass (one read), and flushes `dst`. */
export async function copyWithDigest(src: string, dst: string, algorithms: readonly string[], opts: HashOptions = {}): Promise<Digested> {
  const d = new Digester(algorithms, opts.onBytes);
  await pipeline(createReadStream(src), d, createWriteStream(dst, { flags: 'wx', flush: true }), { signal: opts.signal });
  return { bytes: d.bytes, digests: d.digests() };
}
