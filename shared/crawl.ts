import type { Job } from './job.js';

/** Why a discovered URL was not fetched. Recorded per URL in the catalogue. */
export const SKIP_REASONS = [
  'scope',
  'robots',
  /** robots.txt could not be fetched (refused, unreachable, 5xx), so the site is kept out (RFC 9309); the row's error says why. */
  'robots:unreachable',
  'trap:url-length',
  'trap:path-slashes',
  'trap:segment-repeats',
  'trap:query-params',
  'trap:query-variants',
  'limit:depth',
  'limit:pages',
  'limit:bytes',
  'limit:duration',
  /** Found on a page past the most links the crawl queues from one page (its references are still rewritten). */
  'limit:links-per-page',
  // a focused harvest's link on an off-topic page whose own score did not pass
  'focus:off-topic',
  /** Its host's address is on a private or local network that is neither a seed's host nor one the job allows (--allow-network). */
  'address:private',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Life of a URL in the catalogue.
 * queued: waiting in the frontier; archived: saved in the mirror; redirect: answered with a redirect
 * (its target is its own row); http-error: a 4xx/5xx answer, not saved; failed: no usable answer
 * (network error, timeout, too large); skipped: never fetched, see SkipReason.
 */
export const URL_STATES = ['queued', 'archived', 'redirect', 'http-error', 'failed', 'skipped'] as const;
export type UrlState = (typeof URL_STATES)[number];

export type CrawlState = 'running' | 'pausing' | 'paused' | 'finished' | 'failed';

export interface CrawlCounts {
  /** Distinct canonical URLs seen, whatever became of them. */
  discovered: number;
  queued: number;
  inFlight: number;
  archived: number;
  redirects: number;
  httpErrors: number;
  failed: number;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
  /** Bytes received (after content decoding). */
  bytes: number;
}

/** Counters of a crawl that is not running, from its catalogue's counts by state. */
export function countsFromStates(
  byState: Record<UrlState, number>,
  skippedByReason: Partial<Record<SkipReason, number>>,
  bytes: number,
): CrawlCounts {
  return {
    discovered: Object.values(byState).reduce((a, b) => a + b, 0),
    queued: byState.queued,
    inFlight: 0,
    archived: byState.archived,
    redirects: byState.redirect,
    httpErrors: byState['http-error'],
    failed: byState.failed,
    skipped: byState.skipped,
    skippedByReason: { ...skippedByReason },
    bytes,
  };
}

/** A focused harvest's page verdicts; the harvest rate is relevant pages over pages judged. */
export interface FocusCounts {
  relevantPages: number;
  offTopicPages: number;
  nearDuplicates: number;
  /** null before any page was judged. */
  harvestRate: number | null;
}

export interface ProgressEvent {
  type: 'progress';
  counts: CrawlCounts;
  /** Moving averages over the last few seconds. */
  urlsPerSec: number;
  kbPerSec: number;
  elapsedMs: number;
  current: string[];
  /** Set while the crawl finishes: the mirror's final rewrite pass, URL ids checked of the highest id. */
  finishing?: { done: number; total: number };
  /** A focused harvest's counts and harvest rate so far. */
  focus?: FocusCounts;
}

export interface UrlEvent {
  type: 'url';
  url: string;
  state: UrlState;
  httpStatus?: number;
  skipReason?: SkipReason;
  error?: string;
  bytes?: number;
  localPath?: string;
}

export interface StateEvent {
  type: 'state';
  state: CrawlState;
  message?: string;
  /** The job's politeness after a change made while the crawl runs. */
  politeness?: Job['politeness'];
}

export type CrawlEvent = ProgressEvent | UrlEvent | StateEvent;

/** One row of `harvest list`. */
export interface UrlRecord {
  url: string;
  state: UrlState;
  depth: number;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  localPath: string | null;
  redirectTo: string | null;
  skipReason: SkipReason | null;
  error: string | null;
  /** Why it was not archived, in one line (from the error, skip reason or answer); null when archived or queued. */
  reason: string | null;
  /** Focused harvests only: the page's relevance to the topic (null if not judged). */
  relevance?: number | null;
  topicState?: 'relevant' | 'off-topic' | 'near-duplicate' | null;
  /** The URL of the page a near-duplicate repeats. */
  duplicateOf?: string | null;
  /** Of a near-duplicate and that page: 1 for the same main content, else the share of their SimHash bits that agree. */
  similarity?: number | null;
  /** A rendered page's thumbnail, relative to the archive folder (`harvest list --json` only). */
  thumbnail?: string;
}

/** What `harvest stats` reports. */
export interface CrawlStats {
  name: string;
  seeds: string[];
  state: CrawlState;
  counts: CrawlCounts;
  byState: Record<UrlState, number>;
  startedAt: string | null;
  finishedAt: string | null;
  /** Time spent crawling, summed over runs (pauses excluded). */
  durationMs: number;
  robotsPolicy: 'obeyed' | 'ignored';
  /** What went wrong in the last run, e.g. seeds that could not be reached; null when nothing did. */
  message: string | null;
  /** Focused harvests only (a template): page verdicts and the harvest rate. */
  relevantPages?: number;
  offTopicPages?: number;
  nearDuplicates?: number;
  harvestRate?: number | null;
}
