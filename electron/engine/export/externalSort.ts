import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createOutput, finish, readLines, writeChunk } from './lines.js';

const DEFAULT_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Sorts a text file's lines (by UTF-16 code units, which for CDXJ's ASCII keys is byte order) into
 * `output` with memory bounded by `chunkBytes`: sorted runs are written to `tmpDir`, then merged.
 */
export async function sortLines(
  input: string,
  output: string,
  opts: { tmpDir: string; chunkBytes?: number; signal?: AbortSignal },
): Promise<void> {
  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const runs: string[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    opts.signal?.throwIfAborted();
    const run = path.join(opts.tmpDir, `run-${runs.length}.txt`);
    await writeSorted(chunk, run);
    runs.push(run);
    chunk = [];
    bytes = 0;
  };
  try {
    for await (const line of readLines(input)) {
      if (line === '') continue;
      chunk.push(line);
      bytes += line.length * 2;
      if (bytes >= chunkBytes) await flush();
    }
    if (runs.length === 0) {
      await writeSorted(chunk, output);
      return;
    }
    if (chunk.length > 0) await flush();
    await merge(runs, output, opts.signal);
  } finally {
    await Promise.all(runs.map((r) => rm(r, { force: true })));
  }
}

async function writeSorted(lines: string[], file: string): Promise<void> {
  lines.sort();
  const out = createOutput(file);
  for (const line of lines) await writeChunk(out, line + '\n');
  await finish(out);
}

/** k-way merge of sorted runs; k stays small (input size / chunk size), so a linear scan picks the least. */
async function merge(runs: readonly string[], output: string, signal: AbortSignal | undefined): Promise<void> {
  const readers = runs.map((r) => readLines(r));
  const heads: (string | null)[] = await Promise.all(readers.map(async (r) => (await r.next()).value ?? null));
  const out = createOutput(output);
  let written = 0;
  for (;;) {
    let least = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i] ?? null;
      if (h !== null && (least < 0 || h < heads[least]!)) least = i;
    }
    if (least < 0) break;
    await writeChunk(out, heads[least]! + '\n');
    const next = await readers[least]!.next();
    heads[least] = next.done ? null : next.value;
    if (++written % 10_000 === 0) signal?.throwIfAborted();
  }
  await finish(out);
}
