import type { ErrorCode } from '../../shared/contract.js';
import type { JobIssue } from '../../shared/job.js';

/** A command's failure as the client should see it: a code, a readable message, and for jobs the field issues. */
export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: JobIssue[],
  ) {
    super(message);
    this.name = 'HostError';
  }
}
