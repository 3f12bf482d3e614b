import type Database from 'better-sqlite3';
import type { CaptureSummary, ChangeReport } from '../../../shared/captures.js';
import type { FailureReason, RobotsProblem, UrlFacts } from '../../../shared/urlDetail.js';
import type { CrawlState, SkipReason, UrlRecord, UrlState } from '../../../shared/crawl.js';
import type {
  FetchOutcome,
  LinkRow,
  NewUrl,
  PageRecord,
  PageRow,
  CapturePage,
  PayloadCapture,
  QueuedRow,
  Readmission,
  RobotsRow,
  StoredOriginal,
  UrlCapture,
  UrlQuery,
  UrlRow,
} from './catalogueTypes.js';

/**
 * What the engine asks of an archive's catalogue, by concern, so that another database can stand in
 * for SQLite (sqlite/sqliteCatalogue.ts). The methods are synchronous because the crawl loop commits
 * each outcome, its links and its WARC bookkeeping in one transaction between two awaits; a server
 * database behind this interface has to keep that: one transaction per `transaction` call, and
 * reads that see the writes made in it.
 */

/** The frontier and per-URL log: one row per canonical URL, its state and its links. */
export interface FrontierStore {
  lookup(url: string): UrlRow | undefined;
  get(id: number): UrlRow | undefined;
  insert(u: NewUrl): UrlRow;
  requeue(row: UrlRow, depth: number, requisite: boolean): void;
  /** Brings a row of an earlier capture into the current one, queued or skipped. */
  readmit(row: UrlRow, r: Readmission): void;
  nextQueued(site: string, limit: number): QueuedRow[];
  /** Queued URLs of a site waiting for a retry (a transient failure), in queue order. */
  nextRetry(site: string, limit: number): QueuedRow[];
  /** Counts a failed attempt of a queued URL; it stays queued. */
  setAttempts(id: number, attempts: number): void;
  /** A focused harvest's queue order: highest score first, then discovery (retries apart, as nextQueued). */
  nextQueuedBest(site: string, limit: number): QueuedRow[];
  /** A queued URL met again through a better link moves up; returns whether it did. */
  raiseScore(id: number, score: number): boolean;
  /**
   * Puts back what a run could not reach, so the next one asks again: robots.txt that was
   * unreachable or answered 5xx is forgotten, the URLs it kept out are queued again, and so are
   * seeds (and their redirect hops) that failed without an answer. Returns how many were queued.
   */
  retryUnreachable(): number;
  /** Queues every failed URL again with its attempts cleared (`harvest resume --retry-failed`); returns how many. */
  retryFailed(): number;
  sitesWithQueued(): string[];
  recordOutcome(target: { id: number; url: string }, o: FetchOutcome): void;
  /** `error` says what lies behind the reason, e.g. why robots.txt could not be had. */
  skip(target: { id: number; url: string }, reason: SkipReason, error?: string | null): void;
  /**
   * Skips what is still queued, except the ids in `except` (running now) and, with `keepRequisites`,
   * requisites; returns how many.
   */
  skipQueued(reason: SkipReason, opts: { keepRequisites: boolean; except: number[] }): number;
  /**
   * Gives each redirect the local path its chain ends at. Returns the redirects left unresolved,
   * with their targets.
   */
  resolveRedirectChains(): { id: number; redirect_to_id: number | null }[];
  markError(id: number, error: string): void;
  /**
   * Saved documents with ids in [fromId, toId] and a reference whose written target differs from
   * where it must now point.
   */
  staleDocumentIds(fromId: number, toId: number): number[];
  /** The highest URL id given so far (0 when none). */
  maxUrlId(): number;
  replaceLinks(fromId: number, links: LinkRow[]): void;
  /** Counts a new query string for `key` and returns how many distinct ones it now has. */
  bumpQueryVariant(key: string): number;
}

/** WARC bookkeeping: first captures of payloads, where documents' originals are, the writer's checkpoint. */
export interface PayloadStore {
  /** Where a saved document's original bytes are kept; a URL has one place, the last one put. */
  putOriginal(urlId: number, contentType: string | null, original: StoredOriginal): void;
  getOriginal(urlId: number): StoredOriginal | undefined;
  /** The first capture recorded for a payload digest, if any (the original a revisit points to). */
  captureByDigest(digest: string): PayloadCapture | null;
  /** Remembers a payload's first capture; a digest already known keeps its first one. */
  putCapture(digest: string, capture: PayloadCapture): void;
  /** How far the unfinished WARC file `file` was known to hold complete records, or null. */
  warcCheckpoint(file: string): number | null;
  setWarcCheckpoint(file: string, end: number): void;
}

/**
 * The archive's captures: the first crawl is capture 1, each re-crawl the next. Rows of the
 * frontier carry the capture that last met them; each fetched URL has one UrlCapture per capture.
 */
export interface CaptureStore {
  /** The capture being made, or the last one made. */
  currentCapture(): number;
  /** Makes sure the current capture has its row (a new archive's first crawl). */
  ensureCapture(startedAt: Date): void;
  /**
   * Starts the next capture: every URL row becomes a row of an earlier capture until it is met
   * again; the run's state, times, robots.txt and query-variant counts start afresh. Returns its number.
   */
  beginCapture(startedAt: Date): number;
  /** Records how the current capture's run stopped. */
  endCaptureRun(state: CrawlState, durationMs: number, finishedAt: Date | null): void;
  /** The URL's capture before `before` (default: the current one), if it was fetched in one. */
  previousCapture(urlId: number, before?: number): UrlCapture | undefined;
  putUrlCapture(c: UrlCapture): void;
  /**
   * Marks removed, in the current capture, every URL present in its previous capture that this one
   * did not fetch (no longer reached, or skipped now). Returns how many.
   */
  markUnreachedRemoved(at: Date): number;
  listCaptures(): CaptureSummary[];
  /** Every capture of one URL, oldest first. */
  capturesOf(url: string): UrlCapture[];
  /**
   * What changed in `capture` (default: the current one) since `since` (default: the one before):
   * counts of every outcome, URL lists from `offset` (default 0) capped at `limit`.
   */
  changes(opts: { capture?: number; since?: number; offset?: number; limit?: number }): ChangeReport;
  /**
   * The HTML pages each capture (or only `capture`) fetched and still had (2xx, not removed or
   * failed), by capture then discovery order, each with its own fetch time, streamed.
   */
  iterateCapturePages(capture?: number): Generator<CapturePage>;
  /**
   * The URL whose copy is at mirror path `localPath` (in any capture), and of its captures the one
   * whose payload is in the WARC files nearest `capture` (that one if it can, the earlier of two
   * as near), null when none is; undefined when no URL has that path.
   */
  captureAtPath(localPath: string, capture: number): { url: string; capture: UrlCapture | null } | undefined;
}

/** robots.txt as fetched per site. */
export interface RobotsStore {
  getRobots(site: string): RobotsRow | undefined;
  putRobots(site: string, r: RobotsRow): void;
}

/** What the UI, the exports and `harvest stats`/`list` read. */
export interface CatalogueQueries {
  countByState(): Record<UrlState, number>;
  countBySkipReason(): Partial<Record<SkipReason, number>>;
  /** Bytes received in the current capture (a 304 counts none). */
  totalBytes(): number;
  htmlPagesArchived(): number;
  /** A URL's title and fetch time, if it was fetched. */
  pageOf(url: string): PageRow | null;
  /** Archived HTML pages in discovery order, streamed (what a WACZ's page list holds). */
  iterateHtmlPages(): Generator<PageRow>;
  /** One page of the per-URL log in discovery order, filtered by state, skip reason and a URL substring. */
  queryUrls(q: UrlQuery): { total: number; rows: UrlRecord[] };
  /** One page of the archived HTML pages, searchable by URL and title. */
  queryPages(q: { search?: string; offset: number; limit: number }): { total: number; rows: PageRecord[] };
  /** The archived URL saved at a mirror path, or undefined. */
  pageAt(localPath: string): PageRecord | undefined;
  /** Every URL in discovery order, streamed so a million-row archive lists in flat memory. */
  iterateRecords(): Generator<UrlRecord>;
  /** What the catalogue knows of one canonical URL, for the URL detail panel; null when never discovered. */
  urlFacts(url: string): UrlFacts | null;
  /** Sites whose robots.txt could not be read (unreachable, or a 5xx), which keeps the crawl out of them. */
  robotsProblems(): RobotsProblem[];
  /** The commonest reasons URLs failed or got an HTTP error: the error's text, or `HTTP <status>`. */
  topFailures(limit: number): FailureReason[];
  /** One URL's record, or null. */
  recordOf(url: string): UrlRecord | null;
}

/** One archive's catalogue. */
export interface CatalogueStore extends FrontierStore, PayloadStore, CaptureStore, RobotsStore, CatalogueQueries {
  /**
   * The SQLite connection, for modules that keep queries of their own over the catalogue (the text
   * index, the QA report). Another database would need those modules ported with it.
   */
  readonly sqlite: Database.Database;
  close(): void;
  /** Moves logged writes into the main store at a moment that suits the crawl (may be a no-op). */
  checkpoint(): void;
  /** Runs `fn` as one transaction; cached rows are forgotten if it throws. */
  transaction<T>(fn: () => T): T;
  getMeta(key: string): string | null;
  setMeta(key: string, value: string): void;
}
