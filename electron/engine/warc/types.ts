/** An earlier capture of a payload, which a revisit record points back to. */
export interface OriginalCapture {
  url: string;
  date: Date;
  /** Its response record's id, written as WARC-Refers-To when known. */
  recordId?: string;
  /** Where its response record is, when known: the payload can be read back from there. */
  place?: RecordPlace;
}

export interface WarcWriterOptions {
  dir: string;
  /** File name prefix, e.g. 'harvest': letters, digits, '.', '_' and '-'. */
  prefix: string;
  /** A file is finished before a record would take it past this size; default 1 GiB. */
  maxFileBytes?: number;
  /** Written as `software` in each file's warcinfo record. */
  software: string;
  /** More warcinfo fields (operator, isPartOf, description, robots, ...). */
  info?: Record<string, string>;
  /**
   * Looks a payload digest up among captures made before this writer (the crawl's catalogue), so a
   * payload seen in an earlier run becomes a revisit too. Asked only when the writer's own memory misses.
   */
  seenDigest?: (digest: string) => OriginalCapture | null | Promise<OriginalCapture | null>;
  /**
   * Told of every original (non-revisit) capture of a non-empty payload once its record is in the
   * file, so it can be kept for `seenDigest` in later runs.
   */
  onOriginal?: (digest: string, capture: Required<OriginalCapture>) => void;
  /** Bound on the payload digests the writer remembers itself (some 400 bytes each); default 50,000. */
  maxRememberedDigests?: number;
  /**
   * Keeps, outside the WARC files (the crawl's catalogue), how far the file being written is known
   * to hold complete records, so resuming checks only what came after. Without it a resume checks
   * the whole file.
   */
  checkpoints?: WarcCheckpoints;
}

export interface WarcCheckpoints {
  /** The last offset saved for this unfinished file (its finished name), or null. */
  get(file: string): number | null;
  /** Called once the file holds complete records up to `end`. */
  set(file: string, end: number): void;
}

/** One HTTP exchange as fetched. */
export interface WarcExchange {
  url: string;
  /** When the request started. */
  date: Date;
  ip: string | null;
  /** '1.1' */
  httpVersion: string;
  status: number;
  statusText: string;
  /** As received, in order, with the server's spelling (latin1 strings). */
  responseHeaders: readonly (readonly [string, string])[];
  /** Exactly as received: still content-encoded if it was, chunked framing removed. */
  payload: Buffer;
  /** As written on the wire. */
  requestHeaders: readonly (readonly [string, string])[];
  /** Default 'GET'. */
  method?: string;
  /** The request target as sent: path and query. */
  path: string;
}

export interface WarcMetadata {
  url: string;
  date: Date;
  /** The record id (with its angle brackets) of the response it describes. */
  concurrentTo: string;
  /** One `outlink: <url> <kind>` line each, as Heritrix writes them. */
  outlinks: readonly { url: string; kind: string }[];
}

/** A document Harvest made itself about a page (its thumbnail, a screenshot), kept as a 'resource' record. */
export interface WarcResource {
  /** A URN naming what it is and of which page, e.g. `urn:thumbnail:<url>`. */
  uri: string;
  date: Date;
  contentType: string;
  payload: Buffer;
}

/** Where a record's gzip member is: enough to read it back with one ranged read. */
export interface RecordPlace {
  /** The file's finished name (no directory), which it has once rolled over or closed. */
  file: string;
  /** Where its gzip member starts. */
  offset: number;
  /** The gzip member's length. */
  length: number;
}

/** Where a record went: enough to index it (CDX) and to read it back. */
export interface WarcRecordLocation extends RecordPlace {
  /** `<urn:uuid:…>` */
  recordId: string;
}

export interface ExchangeLocation extends WarcRecordLocation {
  /** `sha256:<base32>` of the payload. */
  payloadDigest: string;
  /** Set when a revisit record was written instead of a response: the capture it points to. */
  revisitOf?: OriginalCapture;
}

/** A damaged tail found and cut off when an unfinished file was reopened. */
export interface WarcRepair {
  file: string;
  /** The file's length after the last complete gzip member, where it was cut. */
  cutAt: number;
  bytesCut: number;
  /** Where the cut bytes were kept, next to the file. */
  savedAs: string;
}
