import path from 'node:path';
import { documentKind, parseDocument } from '../crawl/documents.js';
import { decodeContent } from '../fetch/decompress.js';
import { WARC_DIR } from '../store/archive.js';
import type { UrlCapture } from '../store/catalogueTypes.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween } from '../url/localPath.js';
import { readResponsePayload } from '../warc/readResponse.js';

/** A file of an earlier capture, as the archive host serves it. */
export interface ReplayedFile {
  contentType: string;
  body: Buffer;
  /** Which capture it came from: the one asked for, or the nearest that has it. */
  capture: number;
}

/** What replaying a capture asks of the catalogue (directly, or through a running crawl's worker). */
export interface CaptureSource {
  /** See CaptureStore.captureAtPath; null when no URL has that path. */
  captureAtPath(localPath: string, capture: number): Promise<{ url: string; capture: UrlCapture | null } | null>;
  /** Per canonical URL, the mirror file a reference to it points at; null when none. */
  linkTargets(urls: (string | null)[]): Promise<(string | null)[]>;
}

/**
 * A mirror path as it was in capture `capture`, from the WARC record of that capture or, when it has
 * none there (removed, failed, not reached), of the nearest capture that has one. HTML and CSS have
 * their references rewritten as the mirror's are, relative to their own path, so served under
 * `@capture/<n>/` they lead to the same capture's versions of the page's resources. Null when no
 * capture of any URL at that path has a payload in the WARC files (the caller serves the mirror's file).
 */
export async function replayCapture(source: CaptureSource, archiveDir: string, maxBytes: number, capture: number, localPath: string): Promise<ReplayedFile | null> {
  const found = await source.captureAtPath(localPath, capture);
  if (!found?.capture?.record) return null;
  const c = found.capture;
  const payload = await readResponsePayload(path.join(archiveDir, WARC_DIR), c.record!);
  const body = await decodeContent(payload, c.contentEncoding, maxBytes);
  const contentType = c.contentType ?? 'application/octet-stream';
  const kind = documentKind(c.contentType, found.url);
  if (kind === 'other') return { contentType, body, capture: c.capture };
  const doc = parseDocument(kind, body, found.url, c.contentType);
  const targets = await source.linkTargets(doc.links.map((l) => canonicalize(l.url)));
  let i = 0;
  const rendered = doc.render((link) => {
    const target = targets[i++] ?? null;
    return target === null ? null : hrefBetween(localPath, target, link.fragment || undefined);
  });
  return { contentType, body: rendered, capture: c.capture };
}
