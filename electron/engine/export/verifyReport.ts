/** What `harvest verify` found: one problem per file that is missing, altered or unlisted. */
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
  onProgress?: (p: VerifyProgress) => void;
}

/** The thing to verify is neither a bag nor a WACZ (or cannot be read at all). */
export class VerifyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyInputError';
  }
}
