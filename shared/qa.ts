/**
 * A QA analysis: each archived HTML page as the site shows it (the reference) beside its archived
 * copy, both rendered in the same browser, viewport and wait rules.
 */

/** A resource the reference loaded that the copy could not, by Playwright's resource type. */
export interface QaMissing {
  url: string;
  type: string;
}

/**
 * The copies a page is compared with: the offline mirror, and the WACZ replay (ReplayWeb.page's own
 * files serving the capture's WACZ).
 */
export type QaCopy = 'mirror' | 'replay';
export const QA_COPIES: readonly QaCopy[] = ['mirror', 'replay'];

/** What the reference was: the crawl-time render of a `--render` crawl, or the live page rendered at analysis time. */
export type QaReference = 'crawl-render' | 'live';

/** One copy's figures for a page. */
export interface QaCopyResult {
  textMatch: number | null;
  screenshotMatch: number | null;
  missing: QaMissing[];
  /** Why this copy could not be compared (its render failed). */
  error: string | null;
  /**
   * Why this copy was left out of the comparison, though it showed: the replayed page left for
   * another address by script (ReplayWeb.page follows a client-side redirect the renders stop at).
   */
  skipped?: string;
}

export interface QaPageResult {
  url: string;
  capture: number;
  /** ISO 8601. */
  analysedAt: string;
  /** What the page was compared with. */
  reference: QaReference;
  /** Each copy compared, with its own figures (an analysis made before replays were compared has only the mirror's). */
  copies: Partial<Record<QaCopy, QaCopyResult>>;
  /**
   * The figures below are the worst over the copies compared: the lower match of each kind, every
   * resource some copy lacked, the first copy's error; so a page ranks by the copy that shows it worst.
   */
  /** 0..1: 1 - word edit distance / words of both texts; null when either side could not be rendered. */
  textMatch: number | null;
  /** 0..1: share of the first screenful's pixels that match; null when either side could not be rendered. */
  screenshotMatch: number | null;
  missing: QaMissing[];
  /** Links of the mirror copy that lead to no file of the offline copy. */
  deadLinks: string[];
  /** Why the page could not be compared (the live page is gone, a render failed). */
  error: string | null;
}

/** A page's top-level figures from its copies': the worst of each (see QaPageResult). */
export function worstOfCopies(copies: Partial<Record<QaCopy, QaCopyResult>>): Pick<QaPageResult, 'textMatch' | 'screenshotMatch' | 'missing' | 'error'> {
  const all = QA_COPIES.flatMap((c) => (copies[c] && copies[c].skipped === undefined ? [copies[c]] : []));
  const lowest = (k: 'textMatch' | 'screenshotMatch'): number | null =>
    all.some((c) => c[k] === null) || all.length === 0 ? null : Math.min(...all.map((c) => c[k] as number));
  const missing = new Map<string, QaMissing>();
  for (const c of all) for (const m of c.missing) if (!missing.has(m.url)) missing.set(m.url, m);
  const failed = QA_COPIES.flatMap((c) => (copies[c]?.error ? [`${c}: ${copies[c].error}`] : []));
  return { textMatch: lowest('textMatch'), screenshotMatch: lowest('screenshotMatch'), missing: [...missing.values()], error: failed[0] ?? null };
}

/** The lower of a page's two matches: pages are ranked by it, worst first; null sorts first. */
export function qaScore(r: Pick<QaPageResult, 'textMatch' | 'screenshotMatch'>): number | null {
  if (r.textMatch === null || r.screenshotMatch === null) return null;
  return Math.min(r.textMatch, r.screenshotMatch);
}

/** What an analysis of one capture found, for the QA report. */
export interface QaSummary {
  capture: number;
  analysed: number;
  /** Pages that could not be compared. */
  errors: number;
  /** Pages by score in ten bins: [0, 0.1), …, [0.9, 1.0]. */
  histogram: number[];
  /** Pages with at least one missing resource. */
  withMissing: number;
  /** The lowest-scoring pages, worst first. */
  worst: QaPageResult[];
}

/** The sides of a compared page: the reference, the mirror copy ('copy') and the WACZ replay ('replay'). */
export type QaSide = 'reference' | 'copy' | 'replay';

/** An analysis run by the app, pushed as 'qa' events while it runs. */
export interface QaRunStatus {
  jobId: string;
  capture: number;
  /** 'paused': stopped by the archivist (a second start resumes); 'done': every page analysed. */
  state: 'running' | 'paused' | 'done' | 'failed';
  /** Pages analysed in this run, of those this run had to do. */
  done: number;
  total: number;
  /** Pages an earlier run had analysed (kept, not analysed again). */
  kept: number;
  startedAt: string;
  /** Time left at this run's rate so far; null until a page is done. */
  etaMs: number | null;
  error: string | null;
  /**
   * Set for a patch (Patch missing resources): 'fetching' while its crawl run fetches what was
   * missing (done and total then stay 0), 'analysing' while the pages that lacked something fetched
   * are analysed again, and what it did once it is done.
   */
  patch?: { phase: 'fetching' | 'analysing'; report: null } | { phase: 'done'; report: QaPatchReport };
}

/** One page of a capture's results, worst first, with the figures of all of them. */
export interface QaResultsPage {
  /** The capture the results are of (the one asked for, else the newest, which the analysis compares); null for one never analysed. */
  capture: number | null;
  /** Captures with an analysis, newest first (earlier captures are analysed with `harvest qa --capture N`). */
  captures: number[];
  /** Pages with a result. */
  total: number;
  /** Archived HTML pages of the capture: what a complete analysis compares (pages - total are left). */
  pages: number;
  /** Pages by score in ten bins, as QaSummary.histogram. */
  histogram: number[];
  errors: number;
  withMissing: number;
  rows: QaPageResult[];
}

/** One side of a compared page: its first screenful as a `data:image/png` URL and its visible text; null where not kept. */
export interface QaEvidence {
  image: string | null;
  text: string | null;
}

export interface QaPageDetail {
  result: QaPageResult;
  reference: QaEvidence;
  copy: QaEvidence;
  /** The WACZ replay's side; nulls when the replay was not compared. */
  replay: QaEvidence;
}

/**
 * What became of one resource a patch went for: fetched now; already in the archive (the copy
 * asks for it at an address the offline copy cannot serve, such as one a script builds with a
 * query); refused by the job's rules (scope, robots.txt, address) or answered with an error; or
 * left queued by a run that stopped before it.
 */
export type QaPatchOutcome = 'fetched' | 'archived-before' | 'skipped' | 'failed' | 'queued';

export interface QaPatchedResource {
  url: string;
  /** The type the reference loaded it as (image, fetch, stylesheet…). */
  type: string;
  /** Pages of the analysis that lacked it. */
  pages: number;
  outcome: QaPatchOutcome;
  /** Why it was not fetched (the skip reason, the HTTP status, the error); null when it was. */
  detail: string | null;
}

/** One page's figures before a patch and after it was analysed again. */
export interface QaPatchedPage {
  url: string;
  before: Pick<QaPageResult, 'textMatch' | 'screenshotMatch'> & { missing: number };
  after: Pick<QaPageResult, 'textMatch' | 'screenshotMatch'> & { missing: number };
}

/** What `harvest patch` (or Patch missing resources) did to a capture. */
export interface QaPatchReport {
  capture: number;
  resources: QaPatchedResource[];
  /** The pages analysed again: those that lacked a resource fetched now. */
  pages: QaPatchedPage[];
}
