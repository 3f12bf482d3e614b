import path from 'node:path';
import type { RequestTiming } from '../../../shared/urlDetail.js';
import type { CaptureOutcome } from '../../../shared/captures.js';
import type { SkipReason, UrlState } from '../../../shared/crawl.js';
import type { RecordPlace } from '../warc/types.js';

/** The rows and records the catalogue hands out, whatever database keeps them. */

/** Another connection (a crawl, or another command that changes the archive) holds the archive's writer lock. */
export class ArchiveInUseError extends Error {
  constructor(file: string) {
    super(
      `archive ${path.dirname(file)} is already being written by another process (a crawl, or another command that changes it); ` +
        `an archive takes one writer at a time: let that one finish or pause it, then try again (reading the archive works meanwhile)`,
    );
    this.name = 'ArchiveInUseError';
  }
}

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveFormatError';
  }
}

/** The catalogue file is damaged (SQLite's quick_check found broken pages); the WARC files are not. */
export class CatalogueDamagedError extends ArchiveFormatError {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(
      `the catalogue ${file} is damaged (${detail}); the WARC files beside it are not: rebuild it from them with 'harvest repair ${path.dirname(file)}', or restore it from a backup`,
    );
    this.name = 'CatalogueDamagedError';
  }
}

export interface UrlRow {
  id: number;
  url: string;
  site: string;
  depth: number;
  state: UrlState;
  requisite: number;
  type_hint: string | null;
  redirect_hops: number;
  http_status: number | null;
  content_type: string | null;
  local_path: string | null;
  redirect_to_id: number | null;
  skip_reason: SkipReason | null;
  /** The capture in which the URL was last met: a row of an earlier one is met again (or not) in this one. */
  capture: number;
}

export interface QueuedRow {
  id: number;
  url: string;
  depth: number;
  requisite: number;
  type_hint: string | null;
  redirect_hops: number;
  /** Failed attempts so far (transient failures waiting for a retry). */
  attempts: number;
  /** A focused harvest's best-first score (read in best-first order only). */
  score?: number | null;
}

export interface NewUrl {
  url: string;
  site: string;
  depth: number;
  state: 'queued' | 'skipped';
  requisite: boolean;
  parentId: number | null;
  via: string | null;
  typeHint: string | null;
  redirectHops: number;
  skipReason: SkipReason | null;
  /** A focused harvest's best-first score. */
  score?: number | null;
}

export interface FetchOutcome {
  state: Exclude<UrlState, 'queued' | 'skipped'>;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  localPath: string | null;
  redirectToId: number | null;
  error: string | null;
  title: string | null;
  /** ISO 8601, when the outcome happened; now when absent. */
  fetchedAt?: string;
}

export interface LinkRow {
  toId: number;
  kind: string;
  text: string | null;
  written: string | null;
}

/** Where a payload was first recorded in the archive's WARC files. */
export interface PayloadCapture {
  url: string;
  date: Date;
  /** Its response record's id, `<urn:uuid:…>`. */
  recordId: string;
  /** Its response record's gzip member; unknown for captures saved by schema version 1. */
  place?: RecordPlace;
}

/**
 * A saved document's original bytes: a payload in the WARC files with the Content-Encoding to undo,
 * or deflated in the catalogue.
 */
export type StoredOriginal = { record: RecordPlace; contentEncoding: string | null } | { packed: Buffer };

export interface PageRow {
  url: string;
  title: string | null;
  /** ISO 8601, when its outcome was recorded. */
  fetchedAt: string;
}

/** An HTML page as one capture had it (a WACZ's page list names every capture's pages). */
export interface CapturePage extends PageRow {
  capture: number;
}

export interface RobotsRow {
  http_status: number | null;
  body: string | null;
  error: string | null;
}

export interface UrlQuery {
  state?: UrlState;
  skipReason?: SkipReason;
  /** Substring of the URL. */
  search?: string;
  offset: number;
  limit: number;
}

export interface PageRecord {
  url: string;
  title: string | null;
  localPath: string;
  /** When it was fetched (ISO 8601); given by pageAt only. */
  capturedAt?: string | null;
  /** Gone in the current capture (its copy stays); given by queryPages only. */
  removed?: boolean;
}

/** How a URL met again in a new capture is admitted: what admission would give a new row. */
export type Readmission = Omit<NewUrl, 'url' | 'site'>;

/** One URL in one capture: what it answered and what that was against its previous capture. */
export interface UrlCapture {
  urlId: number;
  capture: number;
  outcome: CaptureOutcome;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  /** `sha256:<base32>` of the payload as received. */
  payloadDigest: string | null;
  /** Digest of an HTML page's whitespace-normalised visible text. */
  textDigest: string | null;
  localPath: string | null;
  etag: string | null;
  lastModified: string | null;
  /** The response record holding its payload (for a revisit, the original's), when known. */
  record: RecordPlace | null;
  contentEncoding: string | null;
  /** ISO 8601. */
  fetchedAt: string;
  /** The answering request's timing; null without an answer. */
  timing: RequestTiming | null;
}
