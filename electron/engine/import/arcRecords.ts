import { createHash } from 'node:crypto';

/**
 * ARC files (version 1, as Heritrix and the Wayback Machine's older crawls wrote them; version 2's
 * longer header lines too): a version block, then records each of a header line
 * `URL IP-address Archive-date Content-type [...] Archive-length` and that many bytes, and a newline.
 * The archive keeps WARC files only, so each record is imported as the WARC record warcio's and
 * pywb's arc2warc would write for it: a response for an HTTP answer, else a resource.
 */

/** What an ARC file starts with: its version block's URL. */
export const ARC_MAGIC = Buffer.from('filedesc://', 'latin1');

/** One ARC record read from a buffer: its header line's fields and where its bytes are. */
export interface ArcRecord {
  url: string;
  ip: string;
  date: string;
  contentType: string;
  /** The record's body: `Archive-length` bytes after the header line. */
  body: Buffer;
  /** Where the record ends in the buffer, its trailing newline included. */
  end: number;
}

const NEWLINE = 0x0a;

/**
 * The ARC record at `at` of `buf`; why there is none ('need more' when the buffer ends first and
 * `complete` is false, so the caller reads on).
 */
export function arcRecordAt(buf: Buffer, at: number, complete: boolean): ArcRecord | string {
  const eol = buf.indexOf(NEWLINE, at);
  if (eol < 0) return complete ? 'an ARC header line without its end' : NEED_MORE;
  const fields = buf.toString('latin1', at, eol).trim().split(/\s+/);
  const length = Number(fields.at(-1));
  if (fields.length < 5 || !Number.isSafeInteger(length) || length < 0) return `not an ARC header line: ${buf.toString('latin1', at, Math.min(eol, at + 120))}`;
  const bodyEnd = eol + 1 + length;
  if (bodyEnd > buf.length) return complete ? `a truncated ARC record: it needs ${length} bytes, ${bodyEnd - buf.length} are missing` : NEED_MORE;
  const end = buf[bodyEnd] === NEWLINE ? bodyEnd + 1 : bodyEnd;
  return { url: fields[0]!, ip: fields[1]!, date: fields[2]!, contentType: fields[3]!, body: buf.subarray(eol + 1, bodyEnd), end };
}

export const NEED_MORE = 'need more';

/** The WARC record standing for an ARC record; null for the version block, which becomes none. */
export function arcToWarc(r: ArcRecord): Buffer | null {
  if (r.url.startsWith('filedesc:')) return null;
  const date = warcDate(r.date);
  const http = /^https?:/i.test(r.url) && r.body.subarray(0, 5).toString('latin1') === 'HTTP/';
  // An id from the record's bytes: the same ARC record imported twice is the same WARC record.
  const id = createHash('sha1').update(r.url).update('\0').update(r.date).update('\0').update(r.body).digest('hex');
  const head = [
    'WARC/1.0',
    `WARC-Type: ${http ? 'response' : 'resource'}`,
    `WARC-Record-ID: <urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-5${id.slice(13, 16)}-${(8 | (parseInt(id[16]!, 16) & 3)).toString(16)}${id.slice(17, 20)}-${id.slice(20, 32)}>`,
    `WARC-Target-URI: ${r.url}`,
    ...(date === null ? [] : [`WARC-Date: ${date}`]),
    ...(r.ip !== '' && r.ip !== '-' ? [`WARC-IP-Address: ${r.ip}`] : []),
    `Content-Type: ${http ? 'application/http; msgtype=response' : r.contentType === '-' ? 'application/octet-stream' : r.contentType}`,
    `Content-Length: ${r.body.length}`,
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), r.body, Buffer.from('\r\n\r\n', 'latin1')]);
}

/** An ARC date (yyyyMMddHHmmss, UTC) as a WARC-Date; null when it is not one. */
function warcDate(d: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(d.slice(0, 14));
  return m === null ? null : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
}
