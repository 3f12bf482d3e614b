/** What an import reports as it goes and when it ends. */

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

/** A record that could not be imported: where it is and why. */
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
  /** Records left out as already imported. */
  duplicates: number;
  /** The capture its records went to; null when it held nothing new. */
  capture: number | null;
  /** The archive's WARC file holding its records; null when it held nothing new. */
  warc: string | null;
}

export interface ImportResult {
  dir: string;
  captures: number;
  files: number;
  /** Records copied into the archive's WARC files. */
  records: number;
  /** Of those, the answers put in the catalogue. */
  catalogued: number;
  /** Records left out as the same capture as one taken before (from this import's files or an earlier one's). */
  duplicates: number;
  problems: ImportProblem[];
  /** Documents whose offline copy was written. */
  documents: number;
}

export interface ImportOptions {
  name?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Told of each record skipped, as it is met. */
  onProblem?: (p: ImportProblem) => void;
}
