import type { FileHandle } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';

/** One complete gzip member of a file. */
export interface GzipMember {
  offset: number;
  length: number;
  /** The start of its decompressed content, at most HEAD_BYTES: enough for a WARC record's header. */
  head: Buffer;
}

export interface MemberScan {
  /** Where the last complete member ends: everything after it is damaged or incomplete. */
  end: number;
  size: number;
}

const HEAD_BYTES = 64 * 1024;
const READ_BYTES = 1024 * 1024;
const RESERVED_FLAGS = 0xe0;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/**
 * Walks a file's gzip members from `from` (a member's start; default the file's start), checking
 * each one through to its CRC-32 and length trailer, and stops at the first that is not complete.
 * Readers such as warcio silently drop a record cut short at the end of a file, so this is how a
 * torn tail is found.
 */
export async function scanGzipMembers(
  fh: FileHandle,
  onMember: (m: GzipMember) => unknown,
  from = 0,
): Promise<MemberScan> {
  const { size } = await fh.stat();
  const window = new FileWindow(fh, size);
  let offset = from;
  while (offset < size) {
    const member = await completeMember(window, offset);
    if (member === null) break;
    await onMember(member);
    offset += member.length;
  }
  return { end: offset, size };
}

/** The complete member at `offset`, or null: read without walking the members before it. */
export async function memberAt(fh: FileHandle, offset: number): Promise<GzipMember | null> {
  const { size } = await fh.stat();
  return completeMember(new FileWindow(fh, size), offset);
}

/** A complete member with all of its decompressed content (`head` is its start). */
export interface InflatedMember extends GzipMember {
  content: Buffer;
  /** The member's bytes as the file holds them. */
  raw: Buffer;
}

/**
 * Reads complete members at offsets the caller chooses, through one window of the file: for a
 * reader that must go on past a damaged member (an import), where scanGzipMembers stops.
 */
export async function gzipMemberReader(fh: FileHandle): Promise<{ size: number; at: (offset: number) => Promise<InflatedMember | null> }> {
  const { size } = await fh.stat();
  const window = new FileWindow(fh, size);
  return { size, at: (offset) => completeMember(window, offset) };
}

/**
 * The complete member at `offset`, or null. It is inflated in one go from a window of the file,
 * doubled while the member runs past it: zlib stops at the end of the deflate stream and reports
 * in bytesWritten the input it used, which is where the trailer is.
 */
async function completeMember(window: FileWindow, offset: number): Promise<InflatedMember | null> {
  for (let min = HEAD_BYTES; ; ) {
    const bytes = await window.at(offset, min);
    const headerLength = gzipHeaderLength(bytes);
    if (headerLength === null) return null;
    const more = window.hasMoreThan(offset, bytes.length);
    min = bytes.length * 2;
    let inflated: { content: Buffer; consumed: number };
    try {
      inflated = inflateRaw(bytes.subarray(headerLength));
    } catch (e) {
      // Z_BUF_ERROR: the input ended inside the stream.
      if ((e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' && more) continue;
      return null;
    }
    const trailerAt = headerLength + inflated.consumed;
    if (bytes.length < trailerAt + 8) {
      if (more) continue;
      return null;
    }
    const { content } = inflated;
    // ISIZE is the length modulo 2^32.
    if (bytes.readUInt32LE(trailerAt) !== crc32(content) || bytes.readUInt32LE(trailerAt + 4) !== content.length % 2 ** 32) {
      return null;
    }
    return { offset, length: trailerAt + 8, head: content.subarray(0, HEAD_BYTES), content, raw: bytes.subarray(0, trailerAt + 8) };
  }
}

/** inflateRawSync with `info`, which @types/node does not model: the output, and the input zlib used. */
function inflateRaw(bytes: Buffer): { content: Buffer; consumed: number } {
  const result = inflateRawSync(bytes, { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
  return { content: result.buffer, consumed: result.engine.bytesWritten };
}

/** The length of the RFC 1952 member header at the start of `bytes`, or null when there is none. */
function gzipHeaderLength(bytes: Buffer): number | null {
  if (bytes.length < 10 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) return null;
  const flags = bytes[3]!;
  if ((flags & RESERVED_FLAGS) !== 0) return null;
  let at = 10;
  if (flags & FEXTRA) {
    if (bytes.length < at + 2) return null;
    at += 2 + bytes.readUInt16LE(at);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const zero = bytes.indexOf(0, at);
    if (zero < 0) return null;
    at = zero + 1;
  }
  if (flags & FHCRC) at += 2;
  return at <= bytes.length ? at : null;
}

/** Reads through a file a buffer at a time (READ_BYTES or more), serving nearby offsets from the last one. */
class FileWindow {
  #bytes = Buffer.alloc(0);
  #start = 0;

  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
  ) {}

  /** Whether the file goes on past `length` bytes from `offset`. */
  hasMoreThan(offset: number, length: number): boolean {
    return offset + length < this.size;
  }

  /** The bytes from `offset` on: at least `min` of them unless the file ends first. */
  async at(offset: number, min: number): Promise<Buffer> {
    const from = offset - this.#start;
    if (from >= 0 && this.#bytes.length - from >= Math.min(min, this.size - offset)) {
      return this.#bytes.subarray(from);
    }
    const length = Math.max(0, Math.min(Math.max(READ_BYTES, min), this.size - offset));
    // Only the bytes read are ever looked at: no need to zero the buffer first.
    const bytes = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.fh.read(bytes, 0, length, offset);
    this.#bytes = bytes.subarray(0, bytesRead);
    this.#start = offset;
    return this.#bytes;
  }
}
