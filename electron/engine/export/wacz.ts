import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { HARVEST_VERSION } from '../../../shared/job.js';
import { writeAtomically } from './atomicFile.js';
import { makeExportTemp } from './exportTemp.js';
import { writeCdxj } from './cdxj.js';
import { dropSupersededErrors } from './supersededErrors.js';
import { datapackageDigestJson, datapackageJson } from './datapackage.js';
import { sortLines } from './externalSort.js';
import { exportedWarcs } from './captureWarcs.js';
import { readProvenance } from './provenance.js';
import { RecordTimes } from './recordTimes.js';
import { HashingZip } from './hashingZip.js';
import { fourteen, writePages } from './pages.js';
import { throttleProgress } from './progress.js';
import type { Exporter } from './types.js';
import { finishedWarcFiles } from './warcFiles.js';
import { writeCompressedIndex } from './zipnum.js';

/** Above this the index goes in compressed blocks with a secondary index, as the WACZ spec advises. */
export const COMPRESS_INDEX_ABOVE_BYTES = 4 * 1024 * 1024;

/**
 * WACZ 1.1.1 (https://specs.webrecorder.net/wacz/1.1.1/): the finished WARC files in archive/, a
 * CDXJ index sorted by SURT key and time in indexes/ (without the errors a later success of their
 * URL in the same capture supersedes, see supersededErrors.ts), pages/pages.jsonl, datapackage.json with the
 * SHA-256 of each file, and datapackage-digest.json. Everything streams: the index is sorted on disk
 * in bounded chunks, and every file is hashed on its way into the zip.
 */
export const exportWacz: Exporter = async (archive, outPath, opts) => {
  const { signal } = opts;
  const onProgress = throttleProgress(opts.onProgress);
  // Refused before any work when the WARC files are unfinished.
  await finishedWarcFiles(archive.warcDir);
  const out = path.resolve(outPath);
  let files = 0;
  await writeAtomically(out, signal, async (partial) => {
    const work = await makeExportTemp(path.dirname(out));
    let times: RecordTimes | null = null;
    try {
      onProgress({ phase: 'selecting WARC records', doneBytes: 0, totalBytes: 0 });
      const warcs = await exportedWarcs(archive, opts.capture, work, signal);
      const warcBytes = warcs.reduce((n, w) => n + w.bytes, 0);
      onProgress({ phase: 'indexing WARC', doneBytes: 0, totalBytes: warcBytes });
      const unsorted = path.join(work, 'unsorted.cdxj');
      times = new RecordTimes(path.join(work, 'record-times.sqlite'));
      const recordTimes = times;
      await writeCdxj(warcs, unsorted, {
        signal,
        onLine: (url, ts) => recordTimes.add(url, ts),
        onBytes: (done) => onProgress({ phase: 'indexing WARC', doneBytes: done, totalBytes: warcBytes }),
      });
      onProgress({ phase: 'sorting index', doneBytes: 0, totalBytes: 0 });
      const allLines = path.join(work, 'all-lines.cdx');
      await sortLines(unsorted, allLines, { tmpDir: work, signal });
      await rm(unsorted);
      const sorted = path.join(work, 'index.cdx');
      const captureStarts = archive.catalogue.listCaptures().map((c) => fourteen(c.startedAt));
      await dropSupersededErrors(allLines, sorted, captureStarts, signal);
      await rm(allLines);
      const indexes: { file: string; name: string; compress: boolean }[] = [];
      if ((await stat(sorted)).size > COMPRESS_INDEX_ABOVE_BYTES) {
        const gz = path.join(work, 'index.cdx.gz');
        const idx = path.join(work, 'index.idx');
        await writeCompressedIndex(sorted, gz, idx, 'index.cdx.gz');
        indexes.push({ file: gz, name: 'index.cdx.gz', compress: false }, { file: idx, name: 'index.idx', compress: true });
      } else {
        indexes.push({ file: sorted, name: 'index.cdx', compress: true });
      }
      const pagesFile = path.join(work, 'pages.jsonl');
      const mainPage = await writePages(archive, pagesFile, { text: !opts.noPageText, times, ...(opts.capture !== undefined && { capture: opts.capture }) });

      const total =
        warcBytes +
        (await Promise.all([...indexes.map((i) => i.file), pagesFile].map(async (f) => (await stat(f)).size))).reduce(
          (a, b) => a + b,
          0,
        );
      let written = 0;
      onProgress({ phase: 'writing', doneBytes: 0, totalBytes: total });
      const zip = new HashingZip(partial, {
        signal,
        onBytes: (n) => {
          written += n;
          onProgress({ phase: 'writing', doneBytes: written, totalBytes: total });
        },
      });
      for (const w of warcs) zip.addFile(w.path, `archive/${w.name}`, false);
      for (const i of indexes) zip.addFile(i.file, `indexes/${i.name}`, i.compress);
      zip.addFile(pagesFile, 'pages/pages.jsonl', true);
      const resources = await zip.resources();
      const pkg = zip.addBuffer(
        datapackageJson({
          resources,
          metadata: opts.metadata,
          fallbackTitle: archive.job.name,
          mainPage,
          software: `Harvest/${HARVEST_VERSION}`,
          harvestStarted: readProvenance(archive, opts.capture).crawlStart,
          written: new Date(),
        }),
        'datapackage.json',
      );
      zip.addBuffer(datapackageDigestJson(pkg), 'datapackage-digest.json');
      await zip.close();
      files = resources.length + 2;
    } finally {
      times?.close();
      await rm(work, { recursive: true, force: true });
    }
  });
  return { path: out, bytes: (await stat(out)).size, files };
};
