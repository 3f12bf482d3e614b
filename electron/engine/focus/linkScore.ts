import { relevanceOf } from './relevance.js';
import type { KeywordMatcher } from './topic.js';
import { tokenize } from './tokens.js';

/**
 * A link's predicted topical relevance before it is fetched. Its own evidence is its anchor text
 * (with image alt text and title) and the words of its URL, the URL counting half:
 *   own = 1 − (1 − anchor)·(1 − url/2)
 * and the page it was found on adds its relevance with a quarter of the weight:
 *   score = 0.75·own + 0.25·parent
 * All in [0, 1). A link on an off-topic page is followed only if its anchor text's own relevance
 * passes the link threshold (URL words alone do not carry a crawl off the topic).
 */
export const PARENT_SHARE = 0.25;

/** From the anchor text's words and the URL's words (urlTokens). */
export function ownLinkScore(topic: KeywordMatcher, anchorWords: readonly string[], urlWords: readonly string[]): number {
  const anchor = anchorWords.length === 0 ? 0 : relevanceOf(topic, anchorWords);
  const inUrl = urlWords.length === 0 ? 0 : relevanceOf(topic, urlWords);
  return 1 - (1 - anchor) * (1 - inUrl / 2);
}

export function linkScore(own: number, parentRelevance: number): number {
  return (1 - PARENT_SHARE) * own + PARENT_SHARE * parentRelevance;
}

export { tokenize };
