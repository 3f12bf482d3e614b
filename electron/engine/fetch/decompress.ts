import { constants as bufferConstants } from 'node:buffer';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { FetchError } from './errors.js';
import { LARGE_BODY_BYTES } from './exchange.js';
import { beforeLargeBuffer, COLLECT_AFTER_BYTES } from '../memory/largeGarbage.js';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** Bigger output pieces than zlib's 16 KiB default: fewer thread-pool round trips on large pages. */
const CHUNK_SIZE = 64 * 1024;
/**
 * Bodies up to this size on the wire are decoded on the calling thread: for a typical compressed
 * page the thread-pool round trip and stream machinery of async zlib cost more than the inflating.
 * Output is capped at DIRECT_DECODE_BYTES there, so the worst case blocks the loop for the time
 * to produce 1 MiB.
 */
const SYNC_DECODE_BYTES = 32 * 1024;
/**
 * Output up to this size is decoded in one call, zlib collecting its pieces and joining them. A
 * larger one is decoded again into a buffer of its exact size (see decodeLarge): joining pieces
 * holds the output twice at once, which for a 50 MB gzip bomb was 100 MB.
 */
export const DIRECT_DECODE_BYTES = LARGE_BODY_BYTES;

type Coding = 'gzip' | 'deflate' | 'deflate-raw' | 'br';

export interface DecodeOptions {
  /**
   * Awaited before output over DIRECT_DECODE_BYTES is held, with its size: the decoder knows it
   * by then, having counted it without keeping it (see BodyRoom in exchange.ts).
   */
  room?: (bytes: number) => Promise<void>;
}

/**
 * Undoes a Content-Encoding (gzip, x-gzip, deflate with or without its zlib wrapper, br; several
 * codings in the order the header lists them). Runs on the thread pool (small bodies inline) and
 * stops as soon as the output passes maxBytes, so a compression bomb costs at most maxBytes, held
 * once. Truncated streams yield what they hold, as browsers do, rather than failing.
 */
export async function decodeContent(wire: Buffer, contentEncoding: string | null, maxBytes: number, opts: DecodeOptions = {}): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let data = wire;
  // Codings are listed in the order they were applied, so undo them from the last.
  for (const name of codings.reverse()) {
    if (data.length === 0) break;
    const coding = codingOf(name, data);
    const coded = data;
    data = await withErrorsNamed(name, coded.length, Math.min(maxBytes, bufferConstants.MAX_LENGTH), (max) => decodeOne(coded, coding, max, opts));
  }
  return data;
}

function codingOf(name: string, data: Buffer): Coding {
  switch (name) {
    case 'gzip':
    case 'x-gzip':
      return 'gzip';
    case 'deflate':
      // "deflate" is meant to be zlib-wrapped, but many servers send raw deflate.
      return hasZlibHeader(data) ? 'deflate' : 'deflate-raw';
    case 'br':
      return 'br';
    default:
      throw new FetchError('decode', `unsupported Content-Encoding: ${name}`);
  }
}

async function decodeOne(data: Buffer, coding: Coding, maxBytes: number, opts: DecodeOptions): Promise<Buffer> {
  try {
    return await decodeDirect(data, coding, Math.min(maxBytes, DIRECT_DECODE_BYTES));
  } catch (e) {
    if (!(maxBytes > DIRECT_DECODE_BYTES && isTooLarge(e))) throw e;
  }
  return decodeLarge(data, coding, maxBytes, opts);
}

/** One call of zlib's, which stops with ERR_BUFFER_TOO_LARGE once the output passes maxBytes. */
function decodeDirect(data: Buffer, coding: Coding, maxBytes: number): Promise<Buffer> {
  const sync = data.length <= SYNC_DECODE_BYTES;
  const options = { maxOutputLength: maxBytes, ...streamOptions(coding) };
  switch (coding) {
    case 'gzip':
      return sync ? Promise.resolve(zlib.gunzipSync(data, options)) : gunzip(data, options);
    case 'deflate':
      return sync ? Promise.resolve(zlib.inflateSync(data, options)) : inflate(data, options);
    case 'deflate-raw':
      return sync ? Promise.resolve(zlib.inflateRawSync(data, options)) : inflateRaw(data, options);
    case 'br':
      return sync ? Promise.resolve(zlib.brotliDecompressSync(data, options)) : brotliDecompress(data, options);
  }
}

/**
 * Output over DIRECT_DECODE_BYTES, decoded into a buffer of its exact size: the size a gzip
 * stream's trailer gives (its length mod 2^32, which a server may get wrong), else the size
 * counted by decoding once without keeping anything. Some 2 ms more per MB when counted.
 */
async function decodeLarge(data: Buffer, coding: Coding, maxBytes: number, opts: DecodeOptions): Promise<Buffer> {
  const said = coding === 'gzip' ? gzipTrailerSize(data) : null;
  if (said !== null && said > DIRECT_DECODE_BYTES && said <= maxBytes) {
    await opts.room?.(said);
    const out = await decodeInto(data, coding, Buffer.allocUnsafe(said));
    if (out !== null) return out;
  }
  const size = await decodePieces(data, coding, maxBytes, () => {});
  await opts.room?.(size);
  const out = await decodeInto(data, coding, Buffer.allocUnsafe(size));
  if (out === null) throw new FetchError('decode', `the ${coding} body decoded to a different size the second time`);
  return out;
}

/** `out` filled with the whole output; null when the output is not exactly its size. */
async function decodeInto(data: Buffer, coding: Coding, out: Buffer): Promise<Buffer | null> {
  try {
    const size = await decodePieces(data, coding, out.length, (piece, at) => piece.copy(out, at));
    return size === out.length ? out : null;
  } catch (e) {
    if (isTooLarge(e)) return null;
    throw e;
  }
}

/** Decodes in pieces, each handed to `take` as it comes; the output's size, or too-large once it passes maxBytes. */
async function decodePieces(data: Buffer, coding: Coding, maxBytes: number, take: (piece: Buffer, at: number) => void): Promise<number> {
  const stream = decoderStream(coding);
  stream.end(data);
  let at = 0;
  let sinceHint = 0;
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      if (at + piece.length > maxBytes) throw Object.assign(new RangeError(`output over ${maxBytes} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
      take(piece, at);
      at += piece.length;
      // Each piece is a buffer of its own, garbage once taken: 50 MB of them for a 50 MB bomb.
      sinceHint += piece.length;
      if (sinceHint >= COLLECT_AFTER_BYTES) {
        beforeLargeBuffer(sinceHint);
        sinceHint = 0;
      }
    }
  } finally {
    stream.destroy();
  }
  return at;
}

function decoderStream(coding: Coding): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress {
  const options = streamOptions(coding);
  switch (coding) {
    case 'gzip':
      return zlib.createGunzip(options);
    case 'deflate':
      return zlib.createInflate(options);
    case 'deflate-raw':
      return zlib.createInflateRaw(options);
    case 'br':
      return zlib.createBrotliDecompress(options);
  }
}

/** A truncated stream yields what it holds (the flush mode), as browsers show it. */
function streamOptions(coding: Coding): zlib.ZlibOptions & zlib.BrotliOptions {
  return coding === 'br'
    ? { chunkSize: CHUNK_SIZE, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }
    : { chunkSize: CHUNK_SIZE, finishFlush: zlib.constants.Z_SYNC_FLUSH };
}

/** RFC 1952's ISIZE: the last member's length mod 2^32, in the stream's last four bytes. */
function gzipTrailerSize(data: Buffer): number | null {
  return data.length >= 18 ? data.readUInt32LE(data.length - 4) : null;
}

async function withErrorsNamed(name: string, codedBytes: number, maxBytes: number, decode: (maxBytes: number) => Promise<Buffer>): Promise<Buffer> {
  try {
    return await decode(maxBytes);
  } catch (err) {
    if (err instanceof FetchError) throw err;
    if (isTooLarge(err)) {
      const message = `decoded body exceeds the ${maxBytes}-byte limit (${codedBytes} bytes as ${name}); decoding stopped there`;
      throw new FetchError('too-large', message, false, { cause: err });
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new FetchError('decode', `cannot decode ${name} body: ${reason}`, false, { cause: err });
  }
}

function isTooLarge(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ERR_BUFFER_TOO_LARGE';
}

/** RFC 1950: compression method 8, window ≤ 32K, and the two header bytes divisible by 31. */
function hasZlibHeader(data: Buffer): boolean {
  const cmf = data[0];
  const flg = data[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}
