import { constants as bufferConstants } from 'node:buffer';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { FetchError } from './errors.js';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** Bigger output pieces than zlib's 16 KiB default: fewer thread-pool round trips on large pages. */
const CHUNK_SIZE = 64 * 1024;
/**
 * Bodies up to this size on the wire are decoded on the calling thread: for a typical compressed
 * page the thread-pool round trip and stream machinery of async zlib cost more than the inflating.
 * Output is still capped at maxBytes, and gzip's ratio is at most about 1:1000, so the worst case
 * blocks the loop for the time to produce 32 MB.
 */
const SYNC_DECODE_BYTES = 32 * 1024;

/** The async decoder, or for small inputs its sync twin wrapped to look the same. */
function pick<O>(data: Buffer, async: (d: Buffer, o: O) => Promise<Buffer>, sync: (d: Buffer, o: O) => Buffer) {
  return data.length <= SYNC_DECODE_BYTES ? async (d: Buffer, o: O) => sync(d, o) : async;
}

/**
 * Undoes a Content-Encoding (gzip, x-gzip, deflate with or without its zlib wrapper, br; several
 * codings in the order the header lists them). Runs on the thread pool (small bodies inline) and stops as soon as the
 * output passes maxBytes (zlib's maxOutputLength), so a compression bomb costs at most maxBytes.
 * Truncated streams yield what they hold, as browsers do, rather than failing.
 */
export async function decodeContent(wire: Buffer, contentEncoding: string | null, maxBytes: number): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let data = wire;
  // Codings are listed in the order they were applied, so undo them from the last.
  for (const coding of codings.reverse()) {
    if (data.length === 0) break;
    data = await decodeOne(data, coding, Math.min(maxBytes, bufferConstants.MAX_LENGTH));
  }
  return data;
}

async function decodeOne(data: Buffer, coding: string, maxBytes: number): Promise<Buffer> {
  const zlibOptions: zlib.ZlibOptions = {
    maxOutputLength: maxBytes,
    chunkSize: CHUNK_SIZE,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  };
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return await pick<zlib.ZlibOptions>(data, gunzip, zlib.gunzipSync)(data, zlibOptions);
      case 'deflate':
        // "deflate" is meant to be zlib-wrapped, but many servers send raw deflate.
        return hasZlibHeader(data)
          ? await pick<zlib.ZlibOptions>(data, inflate, zlib.inflateSync)(data, zlibOptions)
          : await pick<zlib.ZlibOptions>(data, inflateRaw, zlib.inflateRawSync)(data, zlibOptions);
      case 'br':
        return await pick<zlib.BrotliOptions>(data, brotliDecompress, zlib.brotliDecompressSync)(data, {
          maxOutputLength: maxBytes,
          chunkSize: CHUNK_SIZE,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        });
      default:
        throw new FetchError('decode', `unsupported Content-Encoding: ${coding}`);
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FetchError('too-large', `decoded body exceeds ${maxBytes} bytes`, false, { cause: err });
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new FetchError('decode', `cannot decode ${coding} body: ${reason}`, false, { cause: err });
  }
}

/** RFC 1950: compression method 8, window ≤ 32K, and the two header bytes divisible by 31. */
function hasZlibHeader(data: Buffer): boolean {
  const cmf = data[0];
  const flg = data[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}
