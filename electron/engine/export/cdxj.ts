import { createReadStream, createWriteStream } from 'node:fs';
import { CDXIndexer, WARCParser } from 'warcio';
import { ExportUsageError } from './errors.js';
import { finish, writeChunk } from './lines.js';
import type { FinishedWarc } from './warcFiles.js';

/**
 * Writes CDXJ lines (unsorted) for every WARC file with warcio's CDXIndexer: one line per response
 * or revisit, paired with its request, `filename` naming the file as it sits in the WACZ's archive/.
 * A file whose records do not reach its end has a torn tail (warcio skips a cut record silently), so
 * the export is refused rather than silently losing it. Returns how many lines were written.
 */
export async function writeCdxj(
  warcs: readonly FinishedWarc[],
  outFile: string,
  opts: { signal?: AbortSignal; onBytes?: (done: number) => void },
): Promise<number> {
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const out = createWriteStream(outFile);
  let lines = 0;
  let before = 0;
  try {
    for (const warc of warcs) {
      const parser = new WARCParser(createReadStream(warc.path), { parseHttp: true });
      let end = 0;
      const emit = async (result: Record<string, unknown> | null): Promise<void> => {
        if (result === null) return;
        await writeChunk(out, indexer.serializeCDXJ(result));
        lines++;
      };
      for await (const record of parser) {
        opts.signal?.throwIfAborted();
        await record.readFully();
        end = parser.offset + parser.recordLength;
        await emit(indexer.indexRecord(record, parser, warc.name));
        opts.onBytes?.(before + end);
      }
      await emit(indexer.indexRecord(null, parser, warc.name));
      if (end !== warc.bytes) {
        throw new ExportUsageError(
          `WARC file ${warc.name} is damaged: its records end at byte ${end} of ${warc.bytes} (a torn or corrupt tail); nothing was exported`,
        );
      }
      before += warc.bytes;
    }
  } finally {
    await finish(out);
  }
  return lines;
}
