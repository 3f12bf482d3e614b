import { decodeContent } from '../fetch/decompress.js';
import type { StoredOriginal } from '../store/catalogue.js';
import { readResponsePayload } from '../warc/readResponse.js';
import { unpackOriginal } from './documents.js';

/**
 * A saved document's original bytes, read back from its WARC record (content encoding undone as the
 * fetcher did) or inflated from the catalogue. Throws FetchError or WarcError ('damaged') when they
 * can't be had.
 */
export async function readOriginal(warcDir: string, original: StoredOriginal, maxBytes: number): Promise<Buffer> {
  if ('packed' in original) return unpackOriginal(original.packed);
  const payload = await readResponsePayload(warcDir, original.record);
  return decodeContent(payload, original.contentEncoding, maxBytes);
}
