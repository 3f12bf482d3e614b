import { open } from 'node:fs/promises';
import type yauzl from 'yauzl';
import { parseWarcHead } from '../warc/fields.js';
import { scanGzipMembers } from '../warc/gzipMembers.js';
import { recordKey, type IndexedRecord } from './verifyIndex.js';
import type { VerifyProblem } from './verifyReport.js';

const GZIPPED_WARC = /^archive\/(.+\.warc\.gz)$/;
const MAX_PER_KIND = 20;

/**
 * Reads every index line against the record it points at, and every record against the index: each
 * line's offset must start a record (a gzip member) of that length, URL and time, and each record a
 * replay tool looks up (all but requests, warcinfo and warc-fields metadata, as warcio's indexer
 * has it) must have its line, save an error response a later success of its URL supersedes (the
 * export leaves those out of the index, see supersededErrors.ts). The WARC files are read in place
 * in the WACZ, which stores them.
 */
export async function checkRecordsAgainstIndex(
  waczFile: string,
  entries: ReadonlyMap<string, yauzl.Entry>,
  lines: Map<string, IndexedRecord>,
  signal?: AbortSignal,
): Promise<VerifyProblem[]> {
  const problems: VerifyProblem[] = [];
  const counts = { unindexed: 0, wrong: 0 };
  const lastSuccess = lastSuccessByUrl(lines);
  const fh = await open(waczFile, 'r');
  try {
    for (const [name, entry] of entries) {
      const file = GZIPPED_WARC.exec(name)?.[1];
      if (file === undefined || entry.compressionMethod !== 0) continue;
      const start = await dataStart(fh, entry);
      const end = start + entry.compressedSize;
      await scanGzipMembers(
        fh,
        (m) => {
          signal?.throwIfAborted();
          if (m.offset >= end) return;
          const head = parseWarcHead(m.head.toString('latin1'));
          if (head === null || !indexable(head)) return;
          const at = m.offset - start;
          const key = recordKey(file, at);
          const line = lines.get(key);
          // WARC 1.0 writers (wget among them) put the URI in angle brackets; readers take it without.
          const uri = (head.get('warc-target-uri') ?? '').replace(/^<(.*)>$/, '$1');
          const ts = (head.get('warc-date') ?? '').replace(/[-:TZ]|\.\d+/g, '').slice(0, 14);
          if (line === undefined) {
            if (head.get('warc-type') === 'response' && (httpStatus(m.head) ?? 0) >= 400 && (lastSuccess.get(uri) ?? '') > ts) return;
            if (counts.unindexed++ < MAX_PER_KIND) {
              problems.push({ kind: 'invalid', path: name, detail: `the ${head.get('warc-type')} record of ${uri} at offset ${at} has no index line` });
            }
            return;
          }
          lines.delete(key);
          const wrong = [
            line.length !== m.length && `length ${line.length}, the record's is ${m.length}`,
            line.url !== uri && `URL ${line.url}, the record's is ${uri}`,
            line.ts !== ts && `time ${line.ts}, the record's is ${ts}`,
          ].filter((w): w is string => w !== false);
          if (wrong.length > 0 && counts.wrong++ < MAX_PER_KIND) {
            problems.push({ kind: 'invalid', path: name, detail: `the index line for offset ${at} says ${wrong.join('; ')}` });
          }
        },
        start,
      );
    }
  } finally {
    await fh.close();
  }
  let stray = 0;
  for (const [key, line] of lines) {
    if (stray++ >= MAX_PER_KIND) break;
    const [file, offset] = key.split('\t');
    problems.push({ kind: 'invalid', path: `archive/${file}`, detail: `an index line for ${line.url} points at offset ${offset}, where no record starts` });
  }
  if (counts.unindexed > MAX_PER_KIND || counts.wrong > MAX_PER_KIND || lines.size > MAX_PER_KIND) {
    problems.push({ kind: 'invalid', path: 'indexes', detail: `and more: ${counts.unindexed} records without a line, ${counts.wrong} lines that disagree, ${lines.size} lines on no record` });
  }
  return problems;
}

/** Each URL's latest line (14-digit time) with a status below 400. */
function lastSuccessByUrl(lines: ReadonlyMap<string, IndexedRecord>): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines.values()) {
    if (line.status !== null && line.status < 400 && (out.get(line.url) ?? '') < line.ts) out.set(line.url, line.ts);
  }
  return out;
}

/** The status of the HTTP response a record's block starts with, or null. */
function httpStatus(head: Buffer): number | null {
  const text = head.toString('latin1');
  const m = /\r\n\r\nHTTP\/[\d.]+ (\d{3})/.exec(text);
  return m ? Number(m[1]) : null;
}

/** The records warcio's CDXJ indexer writes a line for. */
function indexable(head: Map<string, string>): boolean {
  const type = head.get('warc-type');
  if (type === 'request' || type === 'warcinfo') return false;
  return !((type === 'metadata' || type === 'resource') && head.get('content-type') === 'application/warc-fields');
}

/** Where a stored entry's bytes start: after its local header, name and extra field. */
async function dataStart(fh: Awaited<ReturnType<typeof open>>, entry: yauzl.Entry): Promise<number> {
  const header = Buffer.alloc(30);
  await fh.read(header, 0, 30, entry.relativeOffsetOfLocalHeader);
  return entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}
