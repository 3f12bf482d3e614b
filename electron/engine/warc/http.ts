import { WarcError } from './errors.js';
import { fieldLines, type Field } from './fields.js';

/**
 * The HTTP response head as the server sent it: status line, then its header lines in arrival order
 * with its spelling, as latin1 so every byte the fetcher read comes back unchanged. One exception:
 * the fetcher hands over the payload with chunked framing already removed, so a `chunked` transfer
 * coding is taken out of Transfer-Encoding (the line goes when nothing else is left), as replay tools
 * expect of a de-chunked record: keeping it would make them de-chunk the payload a second time.
 */
export function responseHead(httpVersion: string, status: number, statusText: string, headers: readonly Field[]): Buffer {
  const lines: Field[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'transfer-encoding') {
      lines.push([name, value]);
      continue;
    }
    const codings = value.split(',').map((c) => c.trim()).filter((c) => c !== '' && c.toLowerCase() !== 'chunked');
    if (codings.length > 0) lines.push([name, codings.join(', ')]);
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
