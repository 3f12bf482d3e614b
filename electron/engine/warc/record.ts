import { randomUUID } from 'node:crypto';
import { warcDigest } from './digest.js';
import { fieldLines, type Field } from './fields.js';

export type WarcType = 'warcinfo' | 'response' | 'request' | 'revisit' | 'metadata' | 'resource';

const CRLF = Buffer.from('\r\n');

/** A new `<urn:uuid:…>` record id, in the angle brackets WARC 1.1 puts around record ids. */
export function newRecordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/**
 * WARC-Date to the second (`2024-05-01T12:00:00Z`): WARC 1.1 allows a fraction, but the seconds form
 * is the one every reader, WARC/1.0 ones included, parses.
 */
export function warcDate(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * One uncompressed WARC/1.1 record: the given header fields, then WARC-Block-Digest and
 * Content-Length computed from the block, a blank line, the block, and the two CRLFs that end a record.
 */
export function serializeRecord(fields: readonly Field[], block: readonly Buffer[]): Buffer {
  const length = block.reduce((n, part) => n + part.length, 0);
  const head = fieldLines([...fields, ['WARC-Block-Digest', warcDigest(block)], ['Content-Length', String(length)]]);
  return Buffer.concat([Buffer.from(`WARC/1.1\r\n${head}\r\n`, 'utf8'), ...block, CRLF, CRLF]);
}
