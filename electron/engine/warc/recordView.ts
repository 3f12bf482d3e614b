import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { WarcRecordView } from '../../../shared/urlDetail.js';
import { parseWarcHead } from './fields.js';
import { OPEN_SUFFIX } from './fileNames.js';
import { memberAt, scanGzipMembers, type GzipMember } from './gzipMembers.js';
import type { RecordPlace } from './types.js';

/**
 * What the URL detail panel shows of a WARC record: its WARC head and the HTTP head it holds,
 * read from the start of its gzip member (a record head and an HTTP head fit in the first 64 KiB
 * gzipMembers inflates), never the payload.
 */

const BLANK_LINE = '\r\n\r\n';
/** HTTP heads larger than this are cut: a detail panel, not a forensic tool. */
const MAX_HEADERS = 200;

/** The record at a known place (from the catalogue), or null when its file or member is not there. */
export async function readRecordView(dir: string, place: RecordPlace): Promise<WarcRecordView | null> {
  for (const name of [place.file, place.file + OPEN_SUFFIX]) {
    let fh;
    try {
      fh = await open(path.join(dir, name), 'r');
    } catch {
      continue;
    }
    try {
      const member = await memberAt(fh, place.offset);
      return member ? viewOf(place.file, member) : null;
    } finally {
      await fh.close();
    }
  }
  return null;
}

/**
 * Looks through the WARC files, newest first, for the response or revisit record of `url`, reading
 * at most `budgetBytes` of them. Used when the catalogue holds no place for the URL (only saved
 * documents and first captures of a payload have one). `scanned` says whether every file was read.
 */
export async function findRecordView(dir: string, url: string, budgetBytes: number): Promise<{ view: WarcRecordView | null; complete: boolean }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /\.warc\.gz(\.open)?$/.test(n)).sort().reverse();
  } catch {
    return { view: null, complete: true };
  }
  const needle = `\r\nWARC-Target-URI: ${url}\r\n`;
  let budget = budgetBytes;
  for (const name of names) {
    if (budget <= 0) return { view: null, complete: false };
    const fh = await open(path.join(dir, name), 'r');
    let found: WarcRecordView | null = null;
    try {
      const { size } = await fh.stat();
      budget -= size;
      await scanGzipMembers(fh, (m) => {
        if (found) return;
        const head = m.head.toString('latin1', 0, Math.min(m.head.length, 4096));
        if (!head.includes(needle)) return;
        const view = viewOf(name.replace(/\.open$/, ''), m);
        if (view && (view.type === 'response' || view.type === 'revisit')) found = view;
      });
    } finally {
      await fh.close();
    }
    if (found) return { view: found, complete: true };
  }
  return { view: null, complete: budget > 0 };
}

/** The record view of a gzip member of WARC file `file`; null when it holds no WARC head. */
export function viewOf(file: string, m: GzipMember): WarcRecordView | null {
  const text = m.head.toString('latin1');
  const warcEnd = text.indexOf(BLANK_LINE);
  const head = parseWarcHead(text);
  if (head === null || warcEnd < 0) return null;
  const type = head.get('warc-type') ?? 'unknown';
  const block = text.slice(warcEnd + BLANK_LINE.length);
  const httpEnd = block.indexOf(BLANK_LINE);
  const hasHttp = /^application\/http/i.test(head.get('content-type') ?? '') && block.startsWith('HTTP/');
  const lines = hasHttp ? block.slice(0, httpEnd < 0 ? undefined : httpEnd).split('\r\n') : [];
  const headers = lines
    .slice(1, MAX_HEADERS + 1)
    .map((l) => {
      const colon = l.indexOf(':');
      return colon > 0 ? ([l.slice(0, colon).trim(), l.slice(colon + 1).trim()] as [string, string]) : null;
    })
    .filter((h): h is [string, string] => h !== null);
  return {
    file,
    offset: m.offset,
    length: m.length,
    type,
    recordId: head.get('warc-record-id') ?? null,
    date: head.get('warc-date') ?? null,
    payloadDigest: head.get('warc-payload-digest') ?? null,
    refersToDate: head.get('warc-refers-to-date') ?? null,
    refersToUrl: head.get('warc-refers-to-target-uri') ?? null,
    httpStatusLine: hasHttp ? (lines[0] ?? null) : null,
    headers,
  };
}
