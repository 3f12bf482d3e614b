import { newToken } from './httpGuards.js';

/** How many documents' tokens are remembered; a frame redeems its token right after it loads. */
const MAX_TOKENS = 1024;

/**
 * One-time tokens the archive listener hands to each document it serves into a frame, each naming
 * the job and mirror path it was issued for: the viewer's only proof of where its frame is.
 */
export class FrameTokens {
  private readonly issued = new Map<string, { jobId: string; localPath: string }>();

  issue(jobId: string, localPath: string): string {
    const token = newToken();
    this.issued.set(token, { jobId, localPath });
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.issued.size > MAX_TOKENS) this.issued.delete(this.issued.keys().next().value!);
    return token;
  }

  /** The mirror path the token was issued for, once, if it was issued for this job; else null. */
  redeem(jobId: string, token: string): string | null {
    const entry = this.issued.get(token);
    if (!entry || entry.jobId !== jobId) return null;
    this.issued.delete(token);
    return entry.localPath;
  }
}
