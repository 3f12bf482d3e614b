import type { CaptureOutcome } from '../../../shared/captures.js';
import type { RequestTiming } from '../../../shared/urlDetail.js';
import type { HeaderPair } from '../fetch/headers.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { isPresent } from '../store/captureOutcome.js';
import type { Catalogue, UrlCapture } from '../store/catalogue.js';
import type { OriginalCapture, RecordPlace } from '../warc/types.js';

/** What a capture records of a URL beside its outcome in the URL log. */
export interface Seen {
  outcome: CaptureOutcome;
  payloadDigest: string | null;
  textDigest: string | null;
  etag: string | null;
  lastModified: string | null;
  record: RecordPlace | null;
  contentEncoding: string | null;
  timing: RequestTiming | null;
}

/** Nothing usable came back. */
export const NOTHING_SEEN: Seen = {
  outcome: 'failed',
  payloadDigest: null,
  textDigest: null,
  etag: null,
  lastModified: null,
  record: null,
  contentEncoding: null,
  timing: null,
};

/**
 * Types a browser will not take without their Content-Type (it never sniffs SVG or other XML), which
 * a 304 leaves out: replay tools serve a not-modified revisit with the 304's own headers
 * (ReplayWeb.page does), so an SVG image archived that way shows broken. They are fetched whole
 * again instead, and an unchanged one is an identical-payload revisit carrying its headers.
 */
const NEEDS_ITS_CONTENT_TYPE = /^(image\/svg\+xml|text\/xml|application\/(?:[\w.-]+\+)?xml)$/i;

/**
 * If-None-Match / If-Modified-Since from the URL's previous capture, when it had content the
 * server described with validators (a 304 then carried the ones before it), unless its type needs
 * the Content-Type a 304 omits.
 */
export function conditionalHeaders(prev: UrlCapture | undefined): HeaderPair[] {
  if (!prev || !isPresent(prev)) return [];
  if (NEEDS_ITS_CONTENT_TYPE.test(prev.contentType?.split(';')[0]?.trim() ?? '')) return [];
  const status = prev.httpStatus!;
  if (!((status >= 200 && status < 300) || status === 304)) return [];
  const headers: HeaderPair[] = [];
  if (prev.etag !== null) headers.push(['If-None-Match', prev.etag]);
  if (prev.lastModified !== null) headers.push(['If-Modified-Since', prev.lastModified]);
  return headers;
}

export function timingOf(res: FetchResponse): RequestTiming {
  return { requestedAt: res.startedAt.toISOString(), headersMs: res.headersMs, durationMs: res.durationMs };
}

export function validatorsOf(res: FetchResponse): Pick<Seen, 'etag' | 'lastModified'> {
  return { etag: res.headers['etag'] ?? null, lastModified: res.headers['last-modified'] ?? null };
}

/** The capture a 304's revisit record points at: the first capture of the payload the URL last had. */
export function originalOfPrevious(c: Catalogue, url: string, prev: UrlCapture): OriginalCapture {
  const first = prev.payloadDigest === null ? null : c.captureByDigest(prev.payloadDigest);
  if (first !== null) return first;
  return { url, date: new Date(prev.fetchedAt), ...(prev.record !== null && { place: prev.record }) };
}
