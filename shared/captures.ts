import type { CrawlState } from './crawl.js';

/**
 * What became of a URL in one capture, against its previous capture: new (never there before),
 * restored (there again after a capture that recorded it removed),
 * changed (its visible text changed), markup-only (its payload changed, its visible text did not),
 * unchanged (the same payload digest), not-modified (the server answered 304), removed (404/410 now,
 * or no longer reached from the seeds), http-error (an error status, 4xx or 5xx, as `harvest stats`
 * and the app count HTTP errors), failed (no usable answer: a network error, too large, not saved).
 */
export const CAPTURE_OUTCOMES = ['new', 'restored', 'changed', 'markup-only', 'unchanged', 'not-modified', 'removed', 'http-error', 'failed'] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];

/** Outcomes by the names `harvest changes --json` and the UI use. */
export interface OutcomeCounts {
  new: number;
  restored: number;
  changed: number;
  markupOnly: number;
  unchanged: number;
  notModified: number;
  removed: number;
  httpErrors: number;
  failed: number;
}

export const OUTCOME_KEYS: Record<CaptureOutcome, keyof OutcomeCounts> = {
  new: 'new',
  restored: 'restored',
  changed: 'changed',
  'markup-only': 'markupOnly',
  unchanged: 'unchanged',
  'not-modified': 'notModified',
  removed: 'removed',
  'http-error': 'httpErrors',
  failed: 'failed',
};

/** One capture of an archive, as the library lists it. */
export interface CaptureSummary {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  state: CrawlState;
  durationMs: number;
  counts: OutcomeCounts;
  /** Payload bytes of the URLs new or changed in this capture (what it added to the archive). */
  bytesAdded: number;
}

/** `harvest changes --json`: counts of every outcome, URL lists of the ones worth reading (capped by --limit). */
export interface ChangeReport {
  capture: number;
  /** The capture compared against; null for the first. */
  previous: number | null;
  counts: OutcomeCounts;
  new: string[];
  restored: string[];
  changed: string[];
  markupOnly: string[];
  removed: string[];
}

/** One capture of one URL, for the viewer's timeline. */
export interface UrlCaptureInfo {
  capture: number;
  outcome: CaptureOutcome;
  httpStatus: number | null;
  contentType: string | null;
  fetchedAt: string;
  /** Whether its payload can be read back from the WARC files. */
  readable: boolean;
}

export function emptyOutcomeCounts(): OutcomeCounts {
  return { new: 0, restored: 0, changed: 0, markupOnly: 0, unchanged: 0, notModified: 0, removed: 0, httpErrors: 0, failed: 0 };
}
