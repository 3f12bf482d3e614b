import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** A text file's lines, read as a stream. */
export function readLines(file: string): AsyncIterableIterator<string> {
  return createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })[
    Symbol.asyncIterator
  ]();
}

/**
 * A file written through writeChunk and finish. Its write error (a full disk) is held by the stream
 * and thrown by the next writeChunk or by finish, never emitted with no one listening.
 */
export function createOutput(file: string): WriteStream {
  const out = createWriteStream(file);
  out.on('error', () => {});
  return out;
}

/**
 * Writes, waiting for the stream to drain when its buffer is full, so memory stays flat. Throws the
 * stream's write error: a failed stream never drains, so waiting for 'drain' alone would wait forever.
 */
export async function writeChunk(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.errored) throw out.errored;
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (e?: Error | null): void => {
      out.off('drain', done);
      out.off('error', done);
      out.off('close', done);
      const err = e ?? out.errored;
      if (err) reject(err);
      else if (out.destroyed) reject(new Error('the file was closed before it was written'));
      else resolve();
    };
    out.on('drain', done);
    out.on('error', done);
    out.on('close', done);
  });
}

/** Ends a stream and waits until its file is closed, throwing its write error if it had one. */
export async function finish(out: Writable): Promise<void> {
  if (!out.destroyed) out.end();
  await finished(out);
  if (out.errored) throw out.errored;
}
