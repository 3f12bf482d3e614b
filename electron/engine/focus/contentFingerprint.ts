import { createHash } from 'node:crypto';
import type { MainText } from './mainContent.js';
import { simhash64, simhashHex } from './simhash.js';
import { tokenize } from './tokens.js';

/**
 * What a page is compared by for near-duplicates: the SimHash of its main content's word shingles,
 * and a digest of that content (two pages with the same main text are duplicates whatever their
 * chrome and URL). A page with little main content, or mostly links (a sitemap, an index, a tag
 * page), has no SimHash (0: never near anything) and its body's digest: only a byte-identical copy
 * repeats it, never a page sharing its vocabulary.
 */

/** Fewer main-content words than this: too little text to tell two documents apart by shingles. */
export const MIN_CONTENT_WORDS = 25;
/** A page with more of its text in links than this is a list of links. */
export const MAX_LINK_SHARE = 0.5;
const MAX_WORDS = 20_000;

export interface ContentFingerprint {
  simhash: string;
  digest: string;
}

export function contentFingerprint(main: MainText, body: Buffer, shingle: number): ContentFingerprint {
  const words = main.linkShare > MAX_LINK_SHARE ? [] : tokenize(main.text, MAX_WORDS);
  if (words.length < MIN_CONTENT_WORDS) return { simhash: simhashHex(0n), digest: createHash('sha256').update(body).digest('hex') };
  return { simhash: simhashHex(simhash64(words, shingle)), digest: createHash('sha256').update(`text\n${words.join(' ')}`).digest('hex') };
}
