import type { ProgressEvent, CrawlCounts } from './crawl.js';
import type { Job } from './job.js';
import type { ExportFormat, ExportProgress } from './metadata.js';
import type { ScheduleInfo } from './schedule.js';

/**
 * What the host shows the renderer: the records its commands answer with and its events carry
 * (shared/contract.ts names which command answers with which).
 */

/** What the archivist sees of a job's life. 'interrupted': the app stopped without checkpointing (a crash); offered for resume. */
export const JOB_STATUSES = ['new', 'running', 'pausing', 'paused', 'interrupted', 'finished', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobSummary {
  id: string;
  /** The job's settings with every default filled in. */
  job: Job;
  /** Absolute path of the archive folder the job writes. */
  archiveDir: string;
  status: JobStatus;
  /** Why the last run failed, when status is 'failed'. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Grows with every change the host announces. A command's reply and the event of a later change
   * travel on different channels and can arrive in either order; the higher revision is the newer.
   */
  revision: number;
  /** Counters from the catalogue (null before the first run). */
  counts: CrawlCounts | null;
  /** Crawl time summed over runs, pauses excluded. */
  durationMs: number;
  /** Archived HTML pages, as the library counts them (known after a run; not updated while running). */
  pages?: number;
  /** The capture every figure here is of (the archive's latest); null before the first run. */
  capture?: number | null;
  /** When the first run started and the crawl finished (ISO 8601), from the catalogue. */
  startedAt?: string | null;
  finishedAt?: string | null;
  /** The job's schedule and its next run; null (or absent) when it runs only when started. */
  schedule?: ScheduleInfo | null;
}

/** Rate points kept per running job for the sparklines (one per progress event). */
export const RATE_HISTORY_POINTS = 60;

export interface RatePoint {
  urlsPerSec: number;
  kbPerSec: number;
}

/** A job's latest progress and recent rates, so a reloaded UI shows them at once. */
export interface JobProgressHistory {
  latest: ProgressEvent | null;
  /** Oldest first, at most RATE_HISTORY_POINTS. */
  history: RatePoint[];
}

/** A finished export, remembered by the host so the library can list, download and verify it. */
export interface ExportRecord {
  exportId: string;
  jobId: string;
  format: ExportFormat;
  outPath: string;
  finishedAt: string;
  bytes: number;
  files: number;
  /** Whether the file (or bag folder) is still where it was written. */
  present: boolean;
  /** sha256 of the file as written (WARC and ZIP, which carry no manifest of their own); null for bags. */
  sha256: string | null;
  /** The last fixity check: null until Verify is pressed. */
  verified: { ok: boolean; at: string; detail: string } | null;
  /** Web host only: a same-origin path the browser can download the file from (a bag folder as a ZIP). */
  downloadPath: string | null;
}

export interface ArchiveSummary {
  jobId: string;
  name: string;
  seeds: string[];
  archiveDir: string;
  createdAt: string;
  finishedAt: string | null;
  status: JobStatus;
  pages: number;
  /** The capture `pages` counts (the archive's latest); null before the first run. */
  capture?: number | null;
  bytesOnDisk: number;
  /** The archive holds page thumbnails (rendered capture, or `harvest thumbnails`): the library offers its grid of pages. */
  hasThumbnails?: boolean;
}

/** Whether an archive's pages run their own scripts in the viewer, and whether the archivist can change that (`harvest serve` only). */
export interface ScriptsSetting {
  allowed: boolean;
  switchable: boolean;
}

/** What deleting a job did to its archive folder: Harvest removes only what it made there. */
export interface DeleteReport {
  archiveDir: string;
  /** The archive folder was left as it was (the job alone was removed from the list). */
  kept: boolean;
  /** Entries of the folder Harvest removed (its catalogue, mirror/, warc/, temporary files). */
  removed: string[];
  /** Entries Harvest did not make and so left where they were; the folder stays when there are any. */
  leftBehind: string[];
  folderRemoved: boolean;
  /** Why nothing was removed (a folder Harvest never deletes in, such as a home folder), or null. */
  refused: string | null;
}

export interface PageRow {
  url: string;
  title: string | null;
  /** Path inside the mirror, '/'-separated. */
  localPath: string;
  /** When it was fetched (ISO 8601); archives.lookup gives it, page lists leave it out. */
  capturedAt?: string | null;
  /** Gone from the site in the latest capture (404/410, or no longer linked); its copy stays browsable. Page lists only. */
  removed?: boolean;
  /** Page lists: whether the page has a thumbnail (shared/frameLocation.ts thumbnailPath says where the archive serves it). */
  thumbnail?: boolean;
}

export interface Paged<T> {
  total: number;
  rows: T[];
}

export interface AppInfo {
  version: string;
  /** The per-user folder holding jobs and, by default, archives. */
  dataDir: string;
  /** Job settings with every default, for the job form. */
  defaults: Omit<Job, 'seeds'>;
  /** What the host can do beyond the common commands: the web host has no native dialogs. */
  host: 'electron' | 'web';
  /**
   * Where the in-app viewer finds a job's mirror files, one origin per job: `harvest-archive://{job}/`
   * in Electron (`{job}` stands for the job's id); on the web host `http://{job}.localhost:<port>/<token>/`,
   * a host name per job on one loopback port. shared/frameLocation.ts archiveBase gives a job's base.
   * Never file://.
   */
  viewerBase: string;
}

/** One import's life (`archives.import`), pushed as 'import' events while it runs. */
export interface ImportStatus {
  importId: string;
  /** The files and folders given, as given. */
  paths: string[];
  /** The new archive folder (absolute). */
  outDir: string;
  /** 'pausing' until the record under way is committed; 'paused' can be resumed (archives.importResume). */
  state: 'running' | 'pausing' | 'paused' | 'done' | 'failed';
  progress: {
    /** 'reading': records from the inputs (bytes of them); 'rewriting': the offline copy's links (URLs checked). */
    phase: 'starting' | 'reading' | 'rewriting';
    done: number;
    total: number;
    records: number;
    /** Records that could not be read and were skipped. */
    damaged: number;
    /** Records left out as already imported (the same capture in another file, or earlier in the same). */
    duplicates: number;
  };
  /** When done: the library's new job for the archive, and what was imported. */
  jobId: string | null;
  result: { files: number; records: number; captures: number; documents: number; skipped: number; duplicates: number } | null;
  /** When failed: why, naming the file or folder at fault where there is one. */
  error: string | null;
}

/** One capture of a page: its source (HTML and CSS) and visible text (HTML), both null for other types. */
export interface CaptureContentReply {
  url: string;
  capture: number;
  contentType: string | null;
  source: string | null;
  text: string | null;
}

/** One export's life, pushed as 'export' events while it runs. */
export interface ExportStatus {
  exportId: string;
  jobId: string;
  format: ExportFormat;
  outPath: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress: ExportProgress;
  /** Set when done: bytes and files written. */
  result: { bytes: number; files: number } | null;
  error: string | null;
  /** When done on the web host: where the browser can download the file (a bag folder as a ZIP). */
  downloadPath?: string | null;
}
