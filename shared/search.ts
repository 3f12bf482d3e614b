import { z } from 'zod';

/**
 * Full-text search as the app asks for it and gets it back (`archives.search`): the same index and
 * query language as `harvest search`, over one archive or several.
 */

export const SEARCH_KINDS = ['html', 'pdf', 'text'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The longest query `harvest search` and the app take. */
export const SEARCH_QUERY_MAX_CHARS = 2000;

/** Hits per page of results the app may ask for. */
export const SEARCH_PAGE_MAX = 100;

export const SearchArgsSchema = z
  .object({
    /** The archives (job ids) to search: the current one, or every archive in the library. */
    ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
    query: z.string().min(1).max(SEARCH_QUERY_MAX_CHARS),
    offset: z.number().int().nonnegative().max(100_000).default(0),
    limit: z.number().int().positive().max(SEARCH_PAGE_MAX).default(20),
    kind: z.enum(SEARCH_KINDS).optional(),
  })
  .strict();

/** A run of a snippet's text; `mark` for the words the query matched. */
export interface SnippetPart {
  text: string;
  mark: boolean;
}

/** A word or phrase to highlight in the page a hit opens; `prefix` when the query asked for `word*`. */
export interface HighlightTerm {
  text: string;
  prefix: boolean;
}

export interface SearchHitRow {
  jobId: string;
  /** The original absolute URL. */
  url: string;
  title: string | null;
  kind: SearchKind;
  capture: number;
  /** When the capture was fetched (ISO 8601). */
  capturedAt: string | null;
  snippet: SnippetPart[];
  /** −BM25, higher is better; comparable within one archive's index. */
  score: number;
  /** Where the viewer shows it, or null when the mirror holds no copy (the text came from the WARC). */
  localPath: string | null;
}

export interface SearchReply {
  /** Distinct matching texts, summed over the archives searched. */
  total: number;
  /**
   * How many of them were ranked (summed likewise): all, or where more match than an index ranks
   * (RANK_MAX), its newest; hits page through the ranked ones only.
   */
  ranked: number;
  hits: SearchHitRow[];
  /** What to highlight in a page opened from a hit (words after NOT are left out). */
  terms: HighlightTerm[];
  /** Archives that have no search index yet (made before search existed): `harvest reindex` builds one. */
  unindexed: { jobId: string; name: string }[];
}
