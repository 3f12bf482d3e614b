import { open } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
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
  const member = await readMember(dir, place);
  let record: Buffer;
  try {
    record = gunzipSync(member);
  } catch (e) {
    throw damaged(place, `not a gzip member (${(e as Error).message})`);
  }
  const headEnd = record.indexOf(BLANK_LINE);
  const head = headEnd < 0 ? null : parseWarcHead(record.subarray(0, headEnd + BLANK_LINE.length).toString('utf8'));
  if (head === null) throw damaged(place, 'no WARC record head');
  if (head.get('warc-type') !== 'response') throw damaged(place, `a ${head.get('warc-type') ?? 'untyped'} record, not a response`);
  const blockStart = headEnd + BLANK_LINE.length;
  const block = record.subarray(blockStart, blockStart + Number(head.get('content-length')));
  const http = parseHttpResponse(block);
  if (http === null) throw damaged(place, 'no HTTP response head');
  const declared = head.get('warc-payload-digest');
  if (declared !== undefined && digestMatches(declared, http.rawPayload) === false && digestMatches(declared, http.payload) === false) {
    throw damaged(place, 'payload does not match its digest');
  }
  return http.payload;
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
