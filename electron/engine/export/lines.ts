import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';

/** A text file's lines, read as a stream. */
export function readLines(file: string): AsyncIterableIterator<string> {
  return createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })[
    Symbol.asyncIterator
  ]();
}

/** Writes, waiting for the stream to drain when its buffer is full, so memory stays flat. */
export async function writeChunk(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Ends a stream and waits until its file is closed. */
export async function finish(out: Writable): Promise<void> {
  out.end();
  await once(out, 'close');
}
