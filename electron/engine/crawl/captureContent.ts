import type { UrlCapture } from '../store/catalogue.js';
import { decodeContent } from '../fetch/decompress.js';
import { parseHtml } from '../parse/html.js';
import { decodeText, sniffCharset } from '../parse/decode.js';
import { readResponsePayload } from '../warc/readResponse.js';
import { documentKind } from './documents.js';

/** A URL as it was in one capture, read back from the WARC record that holds its payload. */
export interface CaptureContent {
  contentType: string | null;
  /** The document decoded to text (HTML and CSS); null for anything else. */
  source: string | null;
  /** An HTML page's whitespace-normalised visible text, what a diff of two captures compares. */
  text: string | null;
}

/**
 * Reads one capture of a URL from the archive's WARC files (payload digest checked). Throws
 * WarcError when the record is missing or damaged, and when the capture has no record (fetched
 * without a WARC, failed, or removed).
 */
export async function readCaptureContent(warcDir: string, url: string, capture: UrlCapture, maxBytes: number): Promise<CaptureContent> {
  if (capture.record === null) throw new Error(`capture ${capture.capture} of ${url} has no payload in the WARC files (${capture.outcome})`);
  const payload = await readResponsePayload(warcDir, capture.record);
  const body = await decodeContent(payload, capture.contentEncoding, maxBytes);
  const kind = documentKind(capture.contentType, url);
  if (kind === 'other') return { contentType: capture.contentType, source: null, text: null };
  const source = decodeText(body, sniffCharset(body, capture.contentType, kind));
  const text = kind === 'html' ? parseHtml(body, url, capture.contentType, {}, { withText: true }).text : undefined;
  return { contentType: capture.contentType, source, text: text === undefined ? null : `${text.title}\n${text.body}` };
}
