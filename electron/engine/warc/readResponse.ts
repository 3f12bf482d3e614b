import { open } from 'node:fs/promises';
import path from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { parseRequestHead, type HeaderPair } from '../fetch/headers.js';
import { WarcError } from './errors.js';
import { parseWarcHead } from './fields.js';
import { OPEN_SUFFIX } from './fileNames.js';
import { digestMatches, parseHttpResponse } from './httpBlock.js';
import type { RecordPlace } from './types.js';

const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');

/**
 * Reads back the payload (as received, before content decoding) of one response record that a
 * WarcWriter wrote in `dir`, or an import copied there, with one ranged read: the file under its
 * finished name or, while it is still being written, its open name. The payload is checked against
 * the record's WARC-Payload-Digest (any algorithm Node has; other tools' records may keep chunked
 * framing, which is removed and either form accepted), so a damaged file is reported, never
 * silently used.
 */
export async function readResponsePayload(dir: string, place: RecordPlace): Promise<Buffer> {
  const { warc, block } = splitResponse(gunzip(await readMember(dir, place), place, false), place);
  const http = parseHttpResponse(block);
  if (http === null) throw damaged(place, 'no HTTP response head');
  const declared = warc.get('warc-payload-digest');
  if (declared !== undefined && digestMatches(declared, http.rawPayload) === false && digestMatches(declared, http.payload) === false) {
    throw damaged(place, 'payload does not match its digest');
  }
  return http.payload;
}

/** A response record's head is read from the first this many bytes of its member, when it fits. */
const HEAD_READ_BYTES = 64 * 1024;

/**
 * The HTTP response headers of one response record, as the server sent them: read from the start
 * of the gzip member only (inflated as far as it goes), the whole member when the head is longer.
 */
export async function readResponseHeaders(dir: string, place: RecordPlace): Promise<HeaderPair[]> {
  if (place.length > HEAD_READ_BYTES) {
    const start = gunzip(await readMember(dir, { ...place, length: HEAD_READ_BYTES }), place, true);
    const split = trySplit(start);
    if (split !== null && split.httpEnd >= 0) return httpHeaders(split.block.subarray(0, split.httpEnd));
  }
  const { block, httpEnd } = splitResponse(gunzip(await readMember(dir, place), place, false), place);
  return httpHeaders(block.subarray(0, httpEnd));
}

/** `partial`: the member was cut short on purpose, so inflate what there is. */
function gunzip(member: Buffer, place: RecordPlace, partial: boolean): Buffer {
  try {
    return gunzipSync(member, partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {});
  } catch (e) {
    throw damaged(place, `not a gzip member (${(e as Error).message})`);
  }
}

interface SplitRecord {
  warc: Map<string, string>;
  /** The record's block (HTTP head and payload), as far as `record` holds it. */
  block: Buffer;
  /** Where the HTTP head's closing blank line starts in `block`; -1 when not within it. */
  httpEnd: number;
}

function trySplit(record: Buffer): SplitRecord | null {
  const headEnd = record.indexOf(BLANK_LINE);
  const warc = headEnd < 0 ? null : parseWarcHead(record.subarray(0, headEnd + BLANK_LINE.length).toString('utf8'));
  if (warc === null || warc.get('warc-type') !== 'response') return null;
  const blockStart = headEnd + BLANK_LINE.length;
  const block = record.subarray(blockStart, blockStart + Number(warc.get('content-length')));
  return { warc, block, httpEnd: block.indexOf(BLANK_LINE) };
}

function splitResponse(record: Buffer, place: RecordPlace): SplitRecord {
  const split = trySplit(record);
  if (split === null) {
    const headEnd = record.indexOf(BLANK_LINE);
    const warc = headEnd < 0 ? null : parseWarcHead(record.subarray(0, headEnd + BLANK_LINE.length).toString('utf8'));
    if (warc === null) throw damaged(place, 'no WARC record head');
    throw damaged(place, `a ${warc.get('warc-type') ?? 'untyped'} record, not a response`);
  }
  if (split.httpEnd < 0) throw damaged(place, 'no HTTP response head');
  return split;
}

/** The header lines of an HTTP response head (its status line skipped), latin1 as recorded. */
function httpHeaders(head: Buffer): HeaderPair[] {
  return parseRequestHead(head.toString('latin1'));
}

/** Out of file handles or memory: the process's trouble, not the file's, so not reported as damage. */
const PROCESS_ERRORS = new Set(['EMFILE', 'ENFILE', 'ENOMEM']);

async function readMember(dir: string, place: RecordPlace): Promise<Buffer> {
  for (const name of [place.file, place.file + OPEN_SUFFIX]) {
    try {
      const fh = await open(path.join(dir, name), 'r');
      try {
        const buf = Buffer.alloc(place.length);
        const { bytesRead } = await fh.read(buf, 0, place.length, place.offset);
        if (bytesRead < place.length) throw damaged(place, `the file ends ${place.length - bytesRead} bytes short of the record`);
        return buf;
      } finally {
        await fh.close();
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (e instanceof WarcError || (code !== undefined && PROCESS_ERRORS.has(code))) throw e;
      throw damaged(place, (e as Error).message);
    }
  }
  throw damaged(place, 'the file is missing');
}

function damaged(place: RecordPlace, why: string): WarcError {
  return new WarcError('damaged', `cannot read the record at ${place.file}:${place.offset}: ${why}`);
}
