import type { ImportedFile, ImportProblem } from '../../../shared/report.js';

/** What an import reports as it goes and when it ends (its files and problems are the QA report's types). */
export type { ImportedFile, ImportProblem };

export interface ImportProgress {
  /** Reading records (done and total are bytes of the input files), then the offline copy's rewrite (URL ids checked). */
  phase: 'reading' | 'rewriting';
  done: number;
  total: number;
  records: number;
  damaged: number;
  /** Records left out as already imported. */
  duplicates: number;
}

export interface ImportResult {
  dir: string;
  /** Stopped at a record by `pausing`: run the import again (resumeImport) to go on. */
  paused: boolean;
  captures: number;
  files: number;
  /** Records copied into the archive's WARC files. */
  records: number;
  /** Of those, the answers put in the catalogue. */
  catalogued: number;
  /** Records left out as the same capture as one taken before (from this import's files or an earlier one's). */
  duplicates: number;
  /** Records skipped as damaged; `problems` lists the first of them. */
  skipped: number;
  problems: ImportProblem[];
  /** Documents whose offline copy was written. */
  documents: number;
}

export interface ImportOptions {
  name?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Told of each record skipped, as it is met. */
  onProblem?: (p: ImportProblem) => void;
  /** Asked before each record: true pauses the import there (what was read is committed). */
  pausing?: () => boolean;
  /** Told after each commit of the catalogue: the records committed in all, and the file being read. */
  onCommit?: (c: { records: number; file: string }) => void;
}
