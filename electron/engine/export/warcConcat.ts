import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { HARVEST_VERSION } from '../../../shared/job.js';
import { DUBLIN_CORE_ELEMENTS, type DublinCore } from '../../../shared/metadata.js';
import type { Field } from '../warc/fields.js';
import { newRecordId } from '../warc/record.js';
import { warcinfoRecord } from '../warc/records.js';
import { warcOperator } from '../warc/warcinfo.js';
import { writeAtomically } from './atomicFile.js';
import { makeExportTemp } from './exportTemp.js';
import { throttleProgress } from './progress.js';
import type { Exporter } from './types.js';
import { exportedWarcs } from './captureWarcs.js';
import { createOutput, finish, writeChunk } from './lines.js';
import { finishedWarcFiles, type FinishedWarc } from './warcFiles.js';

/**
 * One `.warc.gz`: a warcinfo record carrying the archive's description, then the finished WARC
 * files one after another. Each record is its own gzip member, so the concatenation is itself a
 * valid multi-member gzip WARC (each file keeps its own warcinfo record too). With `capture`, that
 * capture's files and the originals its revisits refer to (captureWarcs.ts).
 */
export const exportWarc: Exporter = async (archive, outPath, opts) => {
  const { signal } = opts;
  const onProgress = throttleProgress(opts.onProgress);
  await finishedWarcFiles(archive.warcDir);
  const out = path.resolve(outPath);
  await writeAtomically(out, signal, async (partial) => {
    const work = await makeExportTemp(path.dirname(out));
    try {
      await concatenate(partial, await exportedWarcs(archive, opts.capture, work, signal));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
  return { path: out, bytes: (await stat(out)).size, files: 1 };

  async function concatenate(partial: string, warcs: readonly FinishedWarc[]): Promise<void> {
    const total = warcs.reduce((n, w) => n + w.bytes, 0);
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
    const target = createOutput(partial);
    try {
      const info = warcinfoRecord(newRecordId(), new Date(), path.basename(out), descriptionFields(opts.metadata, archive.job.name));
      await writeChunk(target, gzipSync(info));
      for (const w of warcs) await pipeline(createReadStream(w.path), counter(), target, { signal, end: false });
    } finally {
      // Throws the write error the file met last, if any (a failed pipeline has destroyed it already).
      await finish(target);
    }
  }
};

/**
 * The archivist's description as warcinfo fields: Dublin Core element names (WARC 1.1 allows them in
 * warcinfo), a list term repeated once per value, plus the WARC-recommended operator and isPartOf.
 */
function descriptionFields(m: DublinCore, jobName: string): Field[] {
  const fields: Field[] = [['software', `Harvest/${HARVEST_VERSION}`], ['isPartOf', m.title || jobName]];
  const operator = warcOperator({ organization: m.sourceOrganization, email: m.contactEmail });
  if (operator) fields.push(['operator', operator]);
  for (const key of DUBLIN_CORE_ELEMENTS) {
    const v = m[key];
    for (const value of Array.isArray(v) ? v : [v]) if (value !== '') fields.push([key, value]);
  }
  return fields;
}
