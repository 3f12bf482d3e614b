import { open } from 'node:fs/promises';
import { CDXIndexer, WARCParser, type WARCRecord } from 'warcio';
import { scanGzipMembers } from '../warc/gzipMembers.js';
import { ExportUsageError } from './errors.js';
import { createOutput, finish, writeChunk } from './lines.js';
import type { FinishedWarc } from './warcFiles.js';

/**
 * Writes CDXJ lines (unsorted) for every WARC file with warcio's CDXIndexer: one line per response
 * or revisit, paired with its request, `filename` naming the file as it sits in the WACZ's archive/.
 *
 * The files are walked member by member with node's zlib (each record is its own gzip member, CRC
 * checked), and the indexer is handed each record's head: warcio's own reader inflates in
 * JavaScript, several times slower, and an index needs only the WARC and HTTP headers. A file whose
 * complete members stop short of its end has a torn tail, so the export is refused rather than
 * silently missing it. Returns how many lines were written.
 */
export async function writeCdxj(
  warcs: readonly FinishedWarc[],
  outFile: string,
  opts: { signal?: AbortSignal; onBytes?: (done: number) => void },
): Promise<number> {
  const indexer = new PrefixedDigestIndexer({ format: 'cdxj' });
  const out = createOutput(outFile);
  let lines = 0;
  let before = 0;
  const emit = async (result: Record<string, unknown> | null): Promise<void> => {
    if (result === null) return;
    await writeChunk(out, indexer.serializeCDXJ(result));
    lines++;
  };
  try {
    for (const warc of warcs) {
      const fh = await open(warc.path, 'r');
      try {
        const scan = await scanGzipMembers(fh, async (member) => {
          opts.signal?.throwIfAborted();
          const record = await new WARCParser([member.head], { parseHttp: true }).parse();
          if (record !== null) {
            await emit(indexer.indexRecord(record, { offset: member.offset, recordLength: member.length }, warc.name));
          }
          opts.onBytes?.(before + member.offset + member.length);
        });
        await emit(indexer.indexRecord(null, { offset: scan.end, recordLength: 0 }, warc.name));
        if (scan.end !== scan.size) {
          throw new ExportUsageError(
            `WARC file ${warc.name} is damaged: its records end at byte ${scan.end} of ${scan.size} (a torn or corrupt tail); nothing was exported`,
          );
        }
      } finally {
        await fh.close();
      }
      before += warc.bytes;
    }
  } finally {
    await finish(out);
  }
  return lines;
}

/**
 * warcio's indexer cuts the algorithm off `WARC-Payload-Digest` (`sha256:ABC…` becomes `ABC…`), which
 * is only unambiguous for SHA-1. Like pywb for non-SHA-1 digests, Harvest keeps it: `sha256:ABC…`.
 */
class PrefixedDigestIndexer extends CDXIndexer {
  override getField(field: string, record: WARCRecord): string | number | null | undefined {
    return field === 'digest' ? (record.warcPayloadDigest ?? null) : super.getField(field, record);
  }
}
