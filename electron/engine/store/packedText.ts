import { createHash } from 'node:crypto';
import { brotliCompressSync, constants } from 'node:zlib';
import type { DocumentText } from '../parse/pageText.js';

/** A document's text as the index stores it, prepared off the crawl loop (in a document worker). */
export interface PackedText extends DocumentText {
  /** SHA-1 of the text, base64: identical texts (a page under two URLs, or unchanged in a later capture) are kept once. */
  digest: string;
  /** The body, compressed with brotli (7% smaller than deflate on the bench site's text, as fast at this quality): the index keeps it for snippets and WACZ page text. */
  bodyZ: Uint8Array;
}

export function packText(text: DocumentText): PackedText {
  const digest = createHash('sha1').update(text.title).update('\0').update(text.headings).update('\0').update(text.body).digest('base64');
  const bodyZ = brotliCompressSync(text.body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
  return { ...text, digest, bodyZ };
}
