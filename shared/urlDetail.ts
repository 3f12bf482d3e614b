import type { CrawlStats, UrlRecord } from './crawl.js';

/** One WARC record as the URL detail panel shows it: where it is, its WARC head, the HTTP head it holds. */
export interface WarcRecordView {
  /** File name inside the archive's warc/ folder. */
  file: string;
  /** Its gzip member: byte offset and length in the file. */
  offset: number;
  length: number;
  /** 'response', 'revisit', ... */
  type: string;
  recordId: string | null;
  /** WARC-Date: when the request started (to the second, UTC). */
  date: string | null;
  payloadDigest: string | null;
  /** For a revisit: the first capture of the same payload. */
  refersToUrl: string | null;
  refersToDate: string | null;
  /** `HTTP/1.1 200 OK` */
  httpStatusLine: string | null;
  /** Response headers as received, in order. */
  headers: [string, string][];
}

/** What the catalogue knows of one URL. */
/** How long a URL's last request took, as its capture recorded it. */
export interface RequestTiming {
  /** ISO 8601, when the request was sent. */
  requestedAt: string;
  /** Until the response headers arrived, ms. */
  headersMs: number;
  /** Until the last body byte arrived, ms. */
  durationMs: number;
}

export interface UrlFacts {
  record: UrlRecord;
  /** When its outcome was recorded (ISO 8601), null while queued or skipped. */
  fetchedAt: string | null;
  /** How it was found: 'seed', 'redirect', or the kind of reference ('a', 'img', 'css', ...). */
  via: string | null;
  /** The page it was first found on, with the link's text when the catalogue kept it. */
  linkedFrom: { url: string; text: string | null } | null;
  /** Its WARC record's place when the catalogue keeps one (saved documents, first captures of a payload). */
  warcPlace: { file: string; offset: number; length: number } | null;
  /** For a URL kept out by robots.txt: how its site's robots.txt fetch went (an error or a 5xx keeps a crawler out). */
  robots?: { httpStatus: number | null; error: string | null } | null;
  /** Its last request's timing in the current capture; null when it was not answered (or recorded before timings were kept). */
  timing?: RequestTiming | null;
}

/** A site whose robots.txt could not be read, so the crawl kept out of it. */
export interface RobotsProblem {
  site: string;
  httpStatus: number | null;
  error: string | null;
}

/** A URL's detail: the catalogue's facts and its WARC record (headers). */
export interface UrlDetail extends UrlFacts {
  warc: WarcRecordView | null;
  /** Why no record is shown, when none is. */
  warcNote: string | null;
}

/** A failure reason and how many URLs ended with it: an error's text, or `HTTP 404`. */
export interface FailureReason {
  reason: string;
  count: number;
}

/** A finished (or stopped) job's summary. */
export interface JobReport {
  stats: CrawlStats;
  /** Archived HTML pages: what "pages" means everywhere. */
  pages: number;
  topFailures: FailureReason[];
  /** Sites kept out because their robots.txt could not be read. */
  robotsProblems?: RobotsProblem[];
}
