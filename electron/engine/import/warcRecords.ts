import { open, type FileHandle } from 'node:fs/promises';
import { gzipMemberReader, type InflatedMember } from '../warc/gzipMembers.js';
import { ARC_MAGIC, arcRecordAt, arcToWarc, NEED_MORE, type ArcRecord } from './arcRecords.js';

/**
 * Reads another tool's WARC (or ARC: see arcRecords.ts) file record by record, gzipped (a member per record, or several records
 * to a member) or not, and goes on past what it cannot read: a damaged record is reported with its
 * offset and why, and reading resumes at the next record start found after it. Memory holds one
 * record at a time (and, for a gzipped file, one member).
 */

export interface SourceRecord {
  kind: 'record';
  /** Where the record (or its gzip member) starts in the file. */
  offset: number;
  /** The record's bytes: WARC head, block and the blank line after it. */
  content: Buffer;
  /** Its gzip member exactly as the file holds it, when the record is a member of its own. */
  member: Buffer | null;
  /** Where reading goes on: progress through the file. */
  end: number;
}

export interface SourceDamage {
  kind: 'damage';
  offset: number;
  why: string;
  end: number;
}

export type SourceItem = SourceRecord | SourceDamage;

const HEAD_BYTES = 64 * 1024;
const SEARCH_BYTES = 1024 * 1024;
const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');
const WARC_MAGIC = Buffer.from('WARC/', 'latin1');
const RECORD_START = Buffer.from('\nWARC/1.', 'latin1');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);
const NO_HEAD_END = 'a WARC head without its end';
/** Where reading goes on after a damaged ARC record: the next line that starts with a web URL. */
const ARC_RECORD_START = Buffer.from('\nhttp', 'latin1');

/** The file's items from `from`, an offset where an item starts (a resumed import's: see ImportProgressStore). */
export async function* readWarcRecords(file: string, from = 0): AsyncGenerator<SourceItem> {
  const fh = await open(file, 'r');
  try {
    const first = await readBytes(fh, 0, ARC_MAGIC.length);
    if (first[0] === 0x1f && first[1] === 0x8b) yield* gzipped(fh, from);
    else if (first.equals(ARC_MAGIC)) yield* plainArc(fh, from);
    else yield* plain(fh, from);
  } finally {
    await fh.close();
  }
}

async function* gzipped(fh: FileHandle, from: number): AsyncGenerator<SourceItem> {
  const reader = await gzipMemberReader(fh);
  const arc = (await reader.at(0))?.content.subarray(0, ARC_MAGIC.length).equals(ARC_MAGIC) === true;
  let offset = from;
  while (offset < reader.size) {
    const m = await reader.at(offset);
    if (m === null) {
      const next = await nextMember(fh, reader, offset + 1, arc ? ARC_MAGIC.subarray(0, 0) : WARC_MAGIC);
      const why =
        next === null ? `a truncated or damaged gzip member: the last ${reader.size - offset} bytes of the file hold no complete record` : `a damaged gzip member (${next - offset} bytes skipped)`;
      yield { kind: 'damage', offset, why, end: next ?? reader.size };
      if (next === null) return;
      offset = next;
      continue;
    }
    yield* arc ? arcMembersRecords(m) : membersRecords(m);
    offset += m.length;
  }
}

/** The records of one member: itself when it holds exactly one record, else each record apart. */
function* membersRecords(m: InflatedMember): Generator<SourceItem> {
  const end = m.offset + m.length;
  let at = 0;
  let first = true;
  while (at < m.content.length) {
    if (onlyWhitespace(m.content, at)) return;
    const r = recordAt(m.content, at, m.content.length);
    if (typeof r === 'string') {
      yield { kind: 'damage', offset: m.offset, why: `${r} (in the gzip member at ${m.offset}, ${at} bytes into its content)`, end };
      return;
    }
    const whole = first && onlyWhitespace(m.content, r);
    const content = m.content.subarray(at, r);
    yield { kind: 'record', offset: m.offset, content, member: whole ? m.raw : null, end };
    first = false;
    at = r;
  }
}

/** The WARC records standing for the ARC records of one member (none for the version block). */
function* arcMembersRecords(m: InflatedMember): Generator<SourceItem> {
  const end = m.offset + m.length;
  for (let at = 0; at < m.content.length && !onlyWhitespace(m.content, at); ) {
    at += leadingWhitespace(m.content.subarray(at));
    const r = arcRecordAt(m.content, at, true);
    if (typeof r === 'string') {
      yield { kind: 'damage', offset: m.offset, why: `${r} (in the gzip member at ${m.offset}, ${at} bytes into its content)`, end };
      return;
    }
    const content = arcToWarc(r);
    if (content !== null) yield { kind: 'record', offset: m.offset, content, member: null, end };
    at = r.end;
  }
}

/** A plain ARC file's records, as WARC records; a damaged one is skipped to the next header line that reads. */
async function* plainArc(fh: FileHandle, from: number): AsyncGenerator<SourceItem> {
  const { size } = await fh.stat();
  let offset = from;
  while (offset < size) {
    let r: ArcRecord | string = NEED_MORE;
    for (let want = HEAD_BYTES; r === NEED_MORE; want *= 2) {
      const bytes = await readBytes(fh, offset, Math.min(want, size - offset));
      const skip = leadingWhitespace(bytes);
      if (skip === bytes.length && offset + skip >= size) return;
      if (skip > 0) {
        offset += skip;
        continue;
      }
      r = arcRecordAt(bytes, 0, offset + bytes.length >= size);
    }
    if (typeof r !== 'string') {
      const content = arcToWarc(r);
      if (content !== null) yield { kind: 'record', offset, content, member: null, end: offset + r.end };
      offset += r.end;
      continue;
    }
    const next = await find(fh, ARC_RECORD_START, offset + 1, size);
    yield { kind: 'damage', offset, why: next === null ? `${r}; nothing after it could be read` : `${r} (${next + 1 - offset} bytes skipped)`, end: next === null ? size : next + 1 };
    if (next === null) return;
    offset = next + 1;
  }
}

/** The next offset after `from` where a complete gzip member starting with `magic` (a WARC record's; none for an ARC's) starts, or null. */
async function nextMember(fh: FileHandle, reader: { size: number; at: (o: number) => Promise<InflatedMember | null> }, from: number, magic: Buffer): Promise<number | null> {
  for (let at = from; at < reader.size; ) {
    const candidate = await find(fh, GZIP_MAGIC, at, reader.size);
    if (candidate === null) return null;
    const m = await reader.at(candidate);
    if (m !== null && m.content.subarray(0, magic.length).equals(magic)) return candidate;
    at = candidate + 1;
  }
  return null;
}

async function* plain(fh: FileHandle, from: number): AsyncGenerator<SourceItem> {
  const { size } = await fh.stat();
  let offset = from;
  while (offset < size) {
    const head = await readBytes(fh, offset, Math.min(HEAD_BYTES, size - offset));
    const skip = leadingWhitespace(head);
    if (skip === head.length && offset + skip >= size) return;
    offset += skip;
    const r = await plainRecordAt(fh, offset, size);
    if (typeof r !== 'string') {
      yield { kind: 'record', offset, content: r, member: null, end: offset + r.length };
      offset += r.length;
      continue;
    }
    const next = await find(fh, RECORD_START, offset + 1, size);
    yield { kind: 'damage', offset, why: next === null ? `${r}; nothing after it could be read` : `${r} (${next + 1 - offset} bytes skipped)`, end: next === null ? size : next + 1 };
    if (next === null) return;
    offset = next + 1;
  }
}

/** The record at `offset` of a plain file, or why there is none. */
async function plainRecordAt(fh: FileHandle, offset: number, size: number): Promise<Buffer | string> {
  const head = await readBytes(fh, offset, Math.min(HEAD_BYTES, size - offset));
  const length = recordLength(head, 0, head.length);
  if (length === NO_HEAD_END && offset + head.length >= size) return 'a truncated record: the file ends inside its WARC head';
  if (typeof length === 'string') return length;
  if (offset + length > size) return `a truncated record: it needs ${length} bytes, the file ends ${offset + length - size} bytes short`;
  const bytes = await readBytes(fh, offset, length);
  const after = recordAt(bytes, 0, bytes.length);
  return typeof after === 'string' ? after : bytes;
}

/** Where the record at `at` of `buf` ends (after its blank line), or why it cannot be read. */
function recordAt(buf: Buffer, at: number, limit: number): number | string {
  const length = recordLength(buf, at, limit);
  if (typeof length === 'string') return length;
  if (at + length > limit) return `a truncated record: it needs ${length} bytes, ${at + length - limit} are missing`;
  if (!buf.subarray(at + length - BLANK_LINE.length, at + length).equals(BLANK_LINE)) return 'a record whose Content-Length does not end at its blank line';
  return at + length;
}

/** A record's whole length from its head (head, block and the blank line), or why it has none. */
function recordLength(buf: Buffer, at: number, limit: number): number | string {
  if (!buf.subarray(at, at + WARC_MAGIC.length).equals(WARC_MAGIC)) return 'no WARC record starts here';
  const headEnd = buf.indexOf(BLANK_LINE, at);
  if (headEnd < 0 || headEnd >= limit) return NO_HEAD_END;
  const m = /\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i.exec(buf.toString('latin1', at, headEnd + 2));
  if (!m) return 'a WARC head without Content-Length';
  return headEnd + BLANK_LINE.length - at + Number(m[1]) + BLANK_LINE.length;
}

function leadingWhitespace(buf: Buffer): number {
  let n = 0;
  while (n < buf.length && (buf[n] === 0x0d || buf[n] === 0x0a)) n++;
  return n;
}

function onlyWhitespace(buf: Buffer, from: number): boolean {
  return leadingWhitespace(buf.subarray(from)) === buf.length - from;
}

async function readBytes(fh: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, offset);
  return buf.subarray(0, bytesRead);
}

/** The first offset at or after `from` where `needle` starts, or null. */
async function find(fh: FileHandle, needle: Buffer, from: number, size: number): Promise<number | null> {
  for (let at = from; at < size; at += SEARCH_BYTES) {
    const chunk = await readBytes(fh, at, Math.min(SEARCH_BYTES + needle.length - 1, size - at));
    const i = chunk.indexOf(needle);
    if (i >= 0) return at + i;
  }
  return null;
}
