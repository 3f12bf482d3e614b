/** An export the user can fix: the output exists, the crawl is unfinished, the archive has no WARC. */
export class ExportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportUsageError';
  }
}
