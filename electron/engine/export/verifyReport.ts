/**
 * What `harvest verify` found: one problem per file that is missing, altered or unlisted; 'invalid'
 * for what is malformed (a manifest line, a cut-off ZIP, a WARC record's framing or gzip member).
 */
export type ProblemKind = 'missing' | 'altered' | 'unlisted' | 'invalid';

export interface VerifyProblem {
  kind: ProblemKind;
  /** The file's path inside the bag or WACZ ('/'-separated). */
  path: string;
  detail: string;
}

export interface VerifyReport {
  format: 'bagit' | 'wacz';
  target: string;
  ok: boolean;
  /** Files hashed and bytes read. */
  files: number;
  bytes: number;
  /** With `deep`: WARC records read back and checked (digests, framing, gzip). */
  records?: number;
  problems: VerifyProblem[];
}

export interface VerifyProgress {
  phase: string;
  doneBytes: number;
  /** 0 when unknown. */
  totalBytes: number;
}

export interface VerifyOptions {
  signal?: AbortSignal;
  /** Also read every WARC record back: block and payload digests, record framing, gzip integrity. */
  deep?: boolean;
  onProgress?: (p: VerifyProgress) => void;
}

/**
 * The thing to verify is neither a bag nor a WACZ, or cannot be read at all. A bag or WACZ that is
 * damaged (a ZIP cut short, a bag without bagit.txt) is reported as a problem instead.
 */
export class VerifyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyInputError';
  }
}
