/**
 * Why the WARC writer refused or failed.
 *
 * invalid: an option or a field value that cannot go into a WARC (a line break in a header value, a
 * file prefix that is not a plain name). closed: the writer was closed. io: the disk write failed;
 * the file was cut back to its last complete record, or, when even that failed, the writer refuses
 * further writes (reopening repairs the file). damaged: a record read back is missing, cut short or
 * does not match its digest.
 */
export type WarcErrorCode = 'invalid' | 'closed' | 'io' | 'damaged';

export class WarcError extends Error {
  constructor(
    readonly code: WarcErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'WarcError';
  }
}
