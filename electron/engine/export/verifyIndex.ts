import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { getSurt } from 'warcio';
import type yauzl from 'yauzl';
import type { VerifyProblem } from './verifyReport.js';

export const INDEX_CDX = 'indexes/index.cdx';
export const INDEX_CDX_GZ = 'indexes/index.cdx.gz';
export const PAGES = 'pages/pages.jsonl';
const STORED = 0;

/** Where an index line says a record is, and what it says the record holds. */
export interface IndexedRecord {
  url: string;
  /** 14 digits, as the line's key has it. */
  ts: string;
  length: number;
  /** The HTTP status the line gives, when it gives one. */
  status: number | null;
}

/** `archive/<file>` and the byte offset of a record in it. */
export const recordKey = (filename: string, offset: number): string => `${filename}\t${offset}`;

export interface IndexCheck {
  problems: VerifyProblem[];
  /** Each index line by record place, for a deep check to read against the records. */
  lines: Map<string, IndexedRecord>;
}

interface Opener {
  entries: ReadonlyMap<string, yauzl.Entry>;
  stream(entry: yauzl.Entry): Promise<Readable>;
}

/**
 * What a replay tool relies on beyond the hashes: WARC files (and the compressed index) stored, not
 * deflated, since they are read by byte range; a CDXJ index whose lines parse, are sorted, carry the
 * SURT key of their URL and name a WARC file of the package within its size; and a pages.jsonl with
 * at least one page, each page having an index line with its URL at its time. Streams the index;
 * memory holds the pages and (for `keepLines`) one entry per index line.
 */
export async function checkIndexAndPages(zip: Opener, keepLines: boolean): Promise<IndexCheck> {
  const problems: VerifyProblem[] = [];
  const lines = new Map<string, IndexedRecord>();
  for (const [name, entry] of zip.entries) {
    if ((name.startsWith('archive/') || name === INDEX_CDX_GZ) && entry.compressionMethod !== STORED) {
      problems.push({ kind: 'invalid', path: name, detail: 'stored deflated: replay tools read it by byte range, so it must be stored' });
    }
  }
  const pages = await readPages(zip, problems);
  const indexName = zip.entries.has(INDEX_CDX_GZ) ? INDEX_CDX_GZ : INDEX_CDX;
  const indexEntry = zip.entries.get(indexName);
  if (indexEntry === undefined) {
    problems.push({ kind: 'missing', path: INDEX_CDX, detail: 'a WACZ has a CDXJ index (index.cdx or index.cdx.gz)' });
    return { problems, lines };
  }
  const archivedUrls = new Set<string>();
  let input = await zip.stream(indexEntry);
  if (indexName === INDEX_CDX_GZ) input = input.pipe(createGunzip());
  let previous = '';
  let n = 0;
  let reported = 0;
  const bad = (detail: string): void => {
    // One damaged index can have every line wrong: the first few say enough.
    if (reported++ < 20) problems.push({ kind: 'invalid', path: indexName, detail });
  };
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    if (line === '') continue;
    if (line < previous) bad(`line ${n} is out of order (the index is sorted by key and time)`);
    previous = line;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') {
      bad(`line ${n}: ${parsed}`);
      continue;
    }
    const { key, ts, url, filename, offset, length, status } = parsed;
    if (surtOf(url) !== key) bad(`line ${n}: its key ${key} is not the SURT of its URL ${url}`);
    const warc = zip.entries.get(`archive/${filename}`);
    if (warc === undefined) bad(`line ${n}: names archive/${filename}, which the package does not hold`);
    else if (offset + length > warc.uncompressedSize) bad(`line ${n}: its record (${offset}+${length}) runs past the end of archive/${filename}`);
    archivedUrls.add(url);
    pages.delete(`${ts} ${url}`);
    if (keepLines) lines.set(recordKey(filename, offset), { url, ts, length, status });
  }
  if (reported > 20) problems.push({ kind: 'invalid', path: indexName, detail: `and ${reported - 20} more damaged lines` });
  for (const [key, lineNo] of pages) {
    const [ts, url] = [key.slice(0, 14), key.slice(15)];
    const detail = archivedUrls.has(url)
      ? `line ${lineNo}: page ${url} at ${ts} matches no record of that URL in the index`
      : `line ${lineNo}: page ${url} is not archived (no index line has its URL)`;
    problems.push({ kind: 'invalid', path: PAGES, detail });
  }
  return { problems, lines };
}

interface ParsedLine {
  key: string;
  ts: string;
  url: string;
  filename: string;
  offset: number;
  length: number;
  status: number | null;
}

function parseLine(line: string): ParsedLine | string {
  const m = /^(\S+) (\d{14}) (\{.*\})$/.exec(line);
  if (m === null) return 'not a CDXJ line (<key> <14-digit time> <JSON>)';
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(m[3]!) as Record<string, unknown>;
  } catch {
    return 'its JSON does not parse';
  }
  const offset = Number(json['offset']);
  const length = Number(json['length']);
  const { url, filename } = json;
  if (typeof url !== 'string' || typeof filename !== 'string' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length <= 0) {
    return 'it lacks a url, filename, offset or length';
  }
  const status = json['status'] === undefined ? NaN : Number(json['status']);
  return { key: m[1]!, ts: m[2]!, url, filename, offset, length, status: Number.isFinite(status) ? status : null };
}

function surtOf(url: string): string | null {
  try {
    return getSurt(url);
  } catch {
    return null;
  }
}

/** The pages as `<14-digit time> <url>` -> their line number; problems for a missing or empty list. */
async function readPages(zip: Opener, problems: VerifyProblem[]): Promise<Map<string, number>> {
  const pages = new Map<string, number>();
  const entry = zip.entries.get(PAGES);
  if (entry === undefined) {
    problems.push({ kind: 'missing', path: PAGES, detail: 'a WACZ lists its pages in pages/pages.jsonl' });
    return pages;
  }
  let n = 0;
  for await (const line of createInterface({ input: await zip.stream(entry), crlfDelay: Infinity })) {
    n++;
    if (line.trim() === '') continue;
    let json: { url?: unknown; ts?: unknown; format?: unknown };
    try {
      json = JSON.parse(line) as typeof json;
    } catch {
      problems.push({ kind: 'invalid', path: PAGES, detail: `line ${n} is not JSON` });
      continue;
    }
    if (n === 1 && typeof json.format === 'string') continue;
    const ts = typeof json.ts === 'string' ? json.ts.replace(/[-:TZ]|\.\d+/g, '').slice(0, 14) : '';
    if (typeof json.url !== 'string' || !/^\d{14}$/.test(ts)) {
      problems.push({ kind: 'invalid', path: PAGES, detail: `line ${n} lacks a url or an ISO 8601 ts` });
      continue;
    }
    pages.set(`${ts} ${json.url}`, n);
  }
  if (pages.size === 0) problems.push({ kind: 'invalid', path: PAGES, detail: 'it lists no pages' });
  return pages;
}
