import type { KeywordMatcher } from './topic.js';

/**
 * Topic relevance of a text in [0, 1): BM25's term saturation and length normalisation per
 * keyword (the template's weights take the place of IDF, as there is no corpus before the crawl),
 * combined as a noisy OR, so one strong keyword suffices and more keywords only add.
 *   s_k = tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)) / (k1+1),   p_k = min(1, w_k·s_k)
 *   relevance = 1 − Π_k (1 − p_k)
 * Title mentions count TITLE_WEIGHT times.
 */
export const K1 = 1.2;
export const B = 0.75;
/** Words in a typical page's own text (menus and link lists excluded). */
export const AVG_LEN = 300;
export const TITLE_WEIGHT = 3;

export function relevanceOf(matcher: KeywordMatcher, words: readonly string[], titleWords: readonly string[] = []): number {
  const counts = matcher.count(words);
  const inTitle = titleWords.length > 0 ? matcher.count(titleWords) : null;
  const norm = 1 - B + (B * (words.length + titleWords.length)) / AVG_LEN;
  let miss = 1;
  matcher.concepts.forEach((c, k) => {
    const tf = counts[k]! + (inTitle ? TITLE_WEIGHT * inTitle[k]! : 0);
    if (tf === 0) return;
    const s = tf / (tf + K1 * norm);
    miss *= 1 - Math.min(1, c.weight * s);
  });
  return 1 - miss;
}
