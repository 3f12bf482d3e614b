import type { ExtractedValue } from './extract.js';

/*
 * What the crawl and the document workers say to each other about a focused crawl's pages, apart from
 * the analyser itself: the crawl loop needs these without loading cheerio, which field extraction uses.
 */

/** What the crawl tells the document worker about a page it hands over for analysis. */
export interface FocusRequest {
  /** Filter levels passed on the way to this page (0 for a seed). */
  level: number;
  /** Extract the template's fields if the page is a final page or relevant. */
  extract: boolean;
}

export const LINK_ADVANCES = 1;
export const LINK_NEXT_PAGE = 2;

/** A page's scores, computed in the document worker from the same scan that finds its links. */
export interface PageAnalysis {
  relevance: number;
  /** 64-bit SimHash of the page's main content (contentFingerprint.ts), 16 hex digits; 0 for none. */
  simhash: string;
  /** SHA-256 of the main content's words, or of the response body for a page with none: exact duplicates. */
  digest: string;
  /** Per link, in order: its score in [0, 1), or -1 for what is not navigation (requisites). */
  linkScores: number[];
  /** Per link: its anchor text's relevance (what a link on an off-topic page must pass), or -1. */
  linkOwn: number[];
  /** Per link: LINK_ADVANCES (matches the next filter level), LINK_NEXT_PAGE (a next-page label). */
  linkFlags: number[];
  /** The page mentions the filter keywords of the level it was reached through. */
  matchesLevel: boolean;
  /** Extracted fields, or null when not asked for. */
  fields: ExtractedValue[] | null;
}
