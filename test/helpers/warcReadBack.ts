// Reads WARC files back with warcio (webrecorder's reader), independently of the writer's code.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { WARCParser } from 'warcio';

export interface RawRecord {
  offset: number;
  length: number;
  type: string;
  /** A WARC header by name, case-insensitive; repeats joined with ', '. */
  header: (name: string) => string | null;
  /** The record block exactly as stored (HTTP head and payload for HTTP records). */
  block: Buffer;
}

/** Every record of a file, its block unparsed, with warcio's idea of where each gzip member lies. */
export async function readRaw(file: string): Promise<RawRecord[]> {
  const parser = new WARCParser(createReadStream(file), { parseHttp: false });
  const records: RawRecord[] = [];
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully(false));
    const headers = record.warcHeaders.headers;
    records.push({
      offset: parser.offset,
      length: parser.recordLength,
      type: record.warcType,
      header: (name) => headers.get(name) ?? null,
      block,
    });
  }
  return records;
}

export interface HttpRecord {
  type: string;
  url: string | null;
  statusline: string | null;
  httpHeaders: [string, string][];
  /** The payload as warcio serves it: Content-Encoding undone. */
  content: Buffer;
}

/** Every record of a file as a replay tool sees it: HTTP head parsed, payload decoded. */
export async function readHttp(file: string): Promise<HttpRecord[]> {
  const records: HttpRecord[] = [];
  for await (const record of new WARCParser(createReadStream(file), { keepHeadersCase: true })) {
    const http = record.httpHeaders;
    records.push({
      type: record.warcType,
      url: record.warcTargetURI ?? null,
      statusline: http?.statusline ?? null,
      httpHeaders: http ? [...http.headers] : [],
      content: Buffer.from(await record.readFully(true)),
    });
  }
  return records;
}

/**
 * warcio skips a record cut short at the end of a file without a word, so completeness is checked
 * here: the records it found must tile the whole file.
 */
export function assertTilesFile(records: readonly RawRecord[], file: string): void {
  let expected = 0;
  for (const r of records) {
    if (r.offset !== expected) throw new Error(`record at ${r.offset}, expected one at ${expected}`);
    expected += r.length;
  }
  const size = statSync(file).size;
  if (expected !== size) throw new Error(`records end at ${expected}, file is ${size} bytes`);
}

/** `sha256:<base32>` worked out bit by bit, to check the writer's digests without its code. */
export function sha256Base32(data: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...createHash('sha256').update(data).digest()].map((b) => b.toString(2).padStart(8, '0')).join('');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet.charAt(parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2));
  return `sha256:${out.padEnd(Math.ceil(out.length / 8) * 8, '=')}`;
}

/** An HTTP record's payload: what follows the head's blank line. */
export function payloadOf(block: Buffer): Buffer {
  const end = block.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('no end of HTTP head in block');
  return block.subarray(end + 4);
}

/** The HTTP head of a block, blank line included. */
export function headOf(block: Buffer): Buffer {
  return block.subarray(0, block.length - payloadOf(block).length);
}
