import { WarcError } from './errors.js';
import { fieldLines, type Field } from './fields.js';

/**
 * Where a `chunked` coding was taken out of Transfer-Encoding, the header as the server sent it: the
 * name Common Crawl uses for the same purpose, so readers can tell the record was de-chunked.
 */
export const ORIGINAL_TRANSFER_ENCODING = 'X-Crawler-Transfer-Encoding';

/**
 * The HTTP response head as the server sent it: status line, then its header lines in arrival order
 * with its spelling, as latin1 so every byte the fetcher read comes back unchanged. One exception:
 * the fetcher hands over the payload with chunked framing already removed, so a `chunked` transfer
 * coding is taken out of Transfer-Encoding (the line goes when nothing else is left), as replay tools
 * expect of a de-chunked record: keeping it would make them de-chunk the payload a second time. The
 * record says so: the original line follows, renamed X-Crawler-Transfer-Encoding.
 */
export function responseHead(httpVersion: string, status: number, statusText: string, headers: readonly Field[]): Buffer {
  const lines: Field[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'transfer-encoding') {
      lines.push([name, value]);
      continue;
    }
    const all = value.split(',').map((c) => c.trim()).filter((c) => c !== '');
    const codings = all.filter((c) => c.toLowerCase() !== 'chunked');
    if (codings.length > 0) lines.push([name, codings.join(', ')]);
    if (codings.length < all.length) lines.push([ORIGINAL_TRANSFER_ENCODING, value]);
  }
  return head(`HTTP/${httpVersion} ${status} ${statusText}`, lines);
}

/** The HTTP request head as it was written on the wire. */
export function requestHead(method: string, path: string, httpVersion: string, headers: readonly Field[]): Buffer {
  return head(`${method} ${path} HTTP/${httpVersion}`, headers);
}

function head(startLine: string, headers: readonly Field[]): Buffer {
  if (/[\r\n]/.test(startLine)) throw new WarcError('invalid', `line break in ${JSON.stringify(startLine)}`);
  return Buffer.from(`${startLine}\r\n${fieldLines(headers)}\r\n`, 'latin1');
}
