import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeAtomically } from './atomicFile.js';
import { throttleProgress } from './progress.js';
import type { Exporter } from './types.js';
import { finishedWarcFiles } from './warcFiles.js';

/**
 * One `.warc.gz`: the finished WARC files one after another. Each record is its own gzip member, so
 * the concatenation is itself a valid multi-member gzip WARC (each file keeps its warcinfo record).
 */
export const exportWarc: Exporter = async (archive, outPath, opts) => {
  const { signal } = opts;
  const onProgress = throttleProgress(opts.onProgress);
  const warcs = await finishedWarcFiles(archive.warcDir);
  const total = warcs.reduce((n, w) => n + w.bytes, 0);
  const out = path.resolve(outPath);
  await writeAtomically(out, signal, async (partial) => {
    let done = 0;
    onProgress({ phase: 'writing', doneBytes: 0, totalBytes: total });
    const counter = (): Transform =>
      new Transform({
        transform(chunk: Buffer, _enc, cb) {
          done += chunk.length;
          onProgress({ phase: 'writing', doneBytes: done, totalBytes: total });
          cb(null, chunk);
        },
      });
    const target = createWriteStream(partial);
    try {
      for (const w of warcs) await pipeline(createReadStream(w.path), counter(), target, { signal, end: false });
    } finally {
      // A failed pipeline has destroyed the file stream already.
      if (!target.destroyed) target.end();
      if (!target.closed) await once(target, 'close');
    }
  });
  return { path: out, bytes: (await stat(out)).size, files: 1 };
};
