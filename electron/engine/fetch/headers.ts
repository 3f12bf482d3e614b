import type { IncomingHttpHeaders } from 'node:http';

export type HeaderPair = [string, string];

/**
 * Turns undici's raw response headers (alternating name, value; Buffers from the HTTP/1.1 parser)
 * into pairs in arrival order with the server's spelling. Bytes are read as latin1 so they
 * round-trip exactly into a WARC record. A parsed header object (what undici hands over when it
 * has no raw list) loses order and case but keeps every value.
 */
export function rawHeaderPairs(raw: readonly (Buffer | string)[] | IncomingHttpHeaders): HeaderPair[] {
  if (Array.isArray(raw)) {
    const pairs: HeaderPair[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      pairs.push([latin1(raw[i]), latin1(raw[i + 1])]);
    }
    return pairs;
  }
  const pairs: HeaderPair[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([name, v]);
  }
  return pairs;
}

function latin1(part: Buffer | string | undefined): string {
  if (part === undefined) return '';
  return typeof part === 'string' ? part : part.toString('latin1');
}

/**
 * One value per lowercased name. Repeats are joined with ', ' (RFC 9110 list syntax), except
 * Set-Cookie, whose values may themselves contain commas (Expires dates): those are joined with '\n'.
 */
export function foldHeaders(pairs: readonly HeaderPair[]): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    const previous = folded[name];
    if (previous === undefined) folded[name] = value;
    else folded[name] = previous + (name === 'set-cookie' ? '\n' : ', ') + value;
  }
  return folded;
}

/** Header pairs of an HTTP/1.1 request head ("GET / HTTP/1.1\r\nname: value\r\n…"); the request line is skipped. */
export function parseRequestHead(head: string): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    pairs.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return pairs;
}
