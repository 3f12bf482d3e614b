import { createHash } from 'node:crypto';
import { base32 } from './digest.js';

const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');

/** An HTTP response as a WARC record's block holds it. */
export interface HttpResponseBlock {
  status: number;
  statusText: string;
  /** Header lines in order, latin1, names as sent. */
  headers: [string, string][];
  /** The bytes after the head, as the record holds them (chunk framing included when the record kept it). */
  rawPayload: Buffer;
  /** The entity body: rawPayload with chunked framing removed when the head says chunked and the framing holds. */
  payload: Buffer;
}

/** The first value of a header, by case-insensitive name. */
export function headerOf(headers: readonly (readonly [string, string])[], name: string): string | null {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1] ?? null;
}

/** Parses a response block (`HTTP/1.x 200 OK` ...); null when it holds no HTTP response head. */
export function parseHttpResponse(block: Buffer): HttpResponseBlock | null {
  const end = block.indexOf(BLANK_LINE);
  if (end < 0 || !block.subarray(0, 5).equals(Buffer.from('HTTP/'))) return null;
  const lines = block.toString('latin1', 0, end).split(/\r?\n/);
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})\s*(.*)$/.exec(lines[0]!);
  if (!m) return null;
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  const rawPayload = block.subarray(end + BLANK_LINE.length);
  const chunked = /(^|,)\s*chunked\s*$/i.test(headerOf(headers, 'transfer-encoding') ?? '');
  return { status: Number(m[1]), statusText: m[2]!.trim(), headers, rawPayload, payload: (chunked && dechunk(rawPayload)) || rawPayload };
}

/**
 * A chunked body's content, or null when the bytes do not hold complete chunked framing (a record
 * whose writer already removed it but kept the header, as some do).
 */
export function dechunk(body: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return null;
    const size = Number.parseInt(body.toString('latin1', at, lineEnd).split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size < 0 || !/^[0-9a-f]+$/i.test(body.toString('latin1', at, lineEnd).split(';')[0]!.trim())) return null;
    const start = lineEnd + 2;
    if (size === 0) return Buffer.concat(parts);
    if (start + size + 2 > body.length || body.toString('latin1', start + size, start + size + 2) !== '\r\n') return null;
    parts.push(body.subarray(start, start + size));
    at = start + size + 2;
  }
}

const ALGORITHMS: Readonly<Record<string, string>> = { sha1: 'sha1', sha256: 'sha256', 'sha-1': 'sha1', 'sha-256': 'sha256', md5: 'md5', sha512: 'sha512' };

/**
 * Whether `bytes` have the WARC digest `declared` (`<algorithm>:<value>`, base32 as most writers
 * use, or hex); null when the algorithm is not one Node has here, so the caller can't tell.
 */
export function digestMatches(declared: string, bytes: Uint8Array): boolean | null {
  const colon = declared.indexOf(':');
  const algorithm = ALGORITHMS[declared.slice(0, colon).toLowerCase()];
  if (colon < 0 || algorithm === undefined) return null;
  const value = declared.slice(colon + 1).trim();
  const digest = createHash(algorithm).update(bytes).digest();
  const b32 = base32(digest);
  return value.toUpperCase() === b32 || value.toUpperCase() === b32.replace(/=+$/, '') || value.toLowerCase() === digest.toString('hex');
}
