import type { CrawlStats } from './crawl.js';
import type { QaSummary } from './qa.js';

/**
 * The QA report of an archive, for a collection record: what was asked for, what came of it, what
 * was left out and why, and the fixity figures. Its counts are `harvest stats --json` itself
 * (`stats`), so the two can never disagree; the rest is read from the catalogue and the WARC files.
 */
export interface QaReport {
  generatedAt: string;
  generator: string;
  archiveDir: string;
  stats: CrawlStats;
  scope: { mode: string; include: string[]; exclude: string[]; offsiteRequisites: boolean; allowNetworks: string[]; limits: Record<string, number | null> };
  dates: { createdAt: string | null; startedAt: string | null; finishedAt: string | null };
  byMimeType: { mimeType: string; count: number; bytes: number }[];
  skipped: { reason: string; count: number; examples: string[] }[];
  trapGuards: { guard: string; count: number; examples: string[] }[];
  httpErrors: { status: number; count: number; examples: string[] }[];
  failures: { reason: string; count: number; examples: string[] }[];
  robots: { policy: 'obeyed' | 'ignored'; sites: { site: string; httpStatus: number | null; error: string | null; fetchedAt: string }[] };
  largestFiles: { url: string; contentType: string | null; bytes: number }[];
  absoluteLinks: { reason: string; count: number; examples: { from: string; to: string }[] }[];
  /** Screenshots of the seeds' home pages: none are taken yet. */
  thumbnails: { url: string; image: string }[];
  checksums: { payloadDigests: number; algorithm: string; warcFiles: { name: string; bytes: number; sha256: string }[] };
  search: { indexed: boolean; urls: number; texts: number };
  /** The archive's Dublin Core fields that are set, as label and value (`harvest metadata`). */
  metadata: [string, string][];
  /** The newest capture's page analysis (`harvest qa`), or null when it was not analysed. */
  analysis: QaSummary | null;
  /** What `harvest import` made the archive from; null for a crawled archive. */
  imported?: ImportReport | null;
}

/** A record an import skipped: where it is and why. */
export interface ImportProblem {
  file: string;
  offset: number;
  why: string;
}

/** One imported file, as the catalogue's `imported_from` lists it. */
export interface ImportedFile {
  file: string;
  bytes: number;
  /** Records copied into the archive. */
  records: number;
  /** Records left out as already imported (from this file or another). */
  duplicates: number;
  /** The capture its records went to; null when it held nothing new. */
  capture: number | null;
  /** The archive's WARC file holding its records; null when it held nothing new. */
  warc: string | null;
}

/** The import section of the QA report: the files read, and the records skipped (file, offset, why). */
export interface ImportReport {
  files: ImportedFile[];
  /** Every record skipped; `problems` lists the first of them. */
  skipped: number;
  problems: ImportProblem[];
}
