import type { CaptureOutcome } from '../../../shared/captures.js';

/** What a URL's capture is compared by. */
export interface CaptureFacts {
  outcome: CaptureOutcome;
  httpStatus: number | null;
  payloadDigest: string | null;
  textDigest: string | null;
}

/** What the URL answered this time. */
export interface Answer {
  /** null: no usable answer (network error, too large, could not be saved). */
  httpStatus: number | null;
  payloadDigest: string | null;
  textDigest: string | null;
  /** The server answered 304 to the validators of the previous capture (whose digests the answer carries). */
  notModified: boolean;
}

/** Whether a capture holds the URL's content: answered (2xx, 3xx, 304) and not removed. */
export function isPresent(c: Pick<CaptureFacts, 'outcome' | 'httpStatus'> | undefined): boolean {
  return c !== undefined && c.outcome !== 'removed' && c.outcome !== 'failed' && c.httpStatus !== null && c.httpStatus >= 200 && c.httpStatus < 400;
}

/** Gone for good, by HTTP's own words. */
const GONE = new Set([404, 410]);

/**
 * The outcome of an answer against the URL's previous capture. An error status on a URL that had
 * content is `removed` for 404/410; any other error status is an `http-error` (the earlier copy
 * stands), also when it was the same error before: it is counted as `harvest stats` and the job page
 * count it, not as `unchanged`.
 */
export function compareCapture(prev: CaptureFacts | undefined, now: Answer): CaptureOutcome {
  const status = now.httpStatus;
  if (status === null) return 'failed';
  const had = isPresent(prev);
  const samePayload = now.payloadDigest !== null && now.payloadDigest === prev?.payloadDigest;
  if (status >= 400) {
    return had && GONE.has(status) ? 'removed' : 'http-error';
  }
  // Back after a capture that recorded it removed: the archive had it, so it is no new page.
  if (!had) return prev?.outcome === 'removed' ? 'restored' : 'new';
  // A page that now redirects (or no longer does) changed, whatever its body says.
  if (isRedirect(prev!.httpStatus) !== isRedirect(status)) return 'changed';
  if (samePayload) return now.notModified ? 'not-modified' : 'unchanged';
  if (now.textDigest !== null && now.textDigest === prev!.textDigest) return 'markup-only';
  return 'changed';
}

function isRedirect(status: number | null): boolean {
  return status !== null && status >= 300 && status < 400 && status !== 304;
}
