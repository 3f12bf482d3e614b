/** An export the user can fix: the output exists, the crawl is unfinished, the archive has no WARC. */
export class ExportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportUsageError';
  }
}

/** What a failed write means, for the errno codes a full, read-only or failing disk gives. */
const WRITE_PROBLEMS: Record<string, string> = {
  ENOSPC: 'the disk is full (no space left on the device)',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than the disk allows',
  EROFS: 'the disk is read-only',
  EIO: 'the disk reported an input/output error',
};

/** An export that could not write its output: a full or read-only disk. Nothing of it was left behind. */
export class ExportWriteError extends Error {
  constructor(
    readonly outPath: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(`could not write ${outPath}: ${WRITE_PROBLEMS[code] ?? code}; nothing was written (free some space or choose another place)`, options);
    this.name = 'ExportWriteError';
  }
}

/** The ExportWriteError for `e` when it is a disk's write error, else null. */
export function writeErrorOf(e: unknown, outPath: string): ExportWriteError | null {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in WRITE_PROBLEMS ? new ExportWriteError(outPath, code, { cause: e }) : null;
}
