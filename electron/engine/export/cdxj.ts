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
 * silently missing it. `onLine` is told each line's URL and time. Returns how many lines were written.
 */
export async function writeCdxj(
  warcs: readonly FinishedWarc[],
  outFile: string,
  opts: { signal?: AbortSignal; onBytes?: (done: number) => void; onLine?: (url: string, timestamp: string) => void },
): Promise<number> {
  const indexer = new ReplayIndexer({ format: 'cdxj' });
  const out = createOutput(outFile);
  let lines = 0;
  let before = 0;
  const emit = async (result: Record<string, unknown> | null): Promise<void> => {
    if (result === null) return;
    opts.onLine?.(String(result['url']), String(result['timestamp']));
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
            indexer.noteResponse(record);
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

const NOT_MODIFIED_PROFILE = /\/revisit\/server-not-modified$/;

/**
 * warcio's CDXIndexer with two changes replay tools need:
 * - `digest` keeps its algorithm: warcio cuts `sha256:ABC…` to `ABC…`, which is only unambiguous for
 *   SHA-1; like pywb for non-SHA-1 digests, Harvest keeps it.
 * - a server-not-modified revisit is indexed with the status of the response it revisits, not its
 *   own 304: ReplayWeb.page (wabac.js) answers a revisit line with a 3xx status as an empty redirect,
 *   and pywb likewise serves the original's status. Crawls only send conditional requests for a 2xx
 *   capture, so 200 stands for an original not seen (yet) in the files indexed; the others are kept
 *   by record id, few in practice. The export indexes files so that originals come first.
 */
class ReplayIndexer extends CDXIndexer {
  readonly #otherStatus = new Map<string, number>();

  /** Remembers a response's status when it is not 200, for the revisits that refer to it. */
  noteResponse(record: WARCRecord): void {
    const status = record.httpHeaders?.statusCode;
    const id = record.warcHeader('WARC-Record-ID');
    if (record.warcType === 'response' && status !== undefined && Number(status) !== 200 && id) this.#otherStatus.set(id, Number(status));
  }

  override getField(field: string, record: WARCRecord): string | number | null | undefined {
    if (field === 'digest') return record.warcPayloadDigest ?? null;
    if (field === 'status' && record.warcType === 'revisit' && NOT_MODIFIED_PROFILE.test(record.warcHeader('WARC-Profile') ?? '')) {
      return this.#otherStatus.get(record.warcHeader('WARC-Refers-To') ?? '') ?? 200;
    }
    return super.getField(field, record);
  }
}
