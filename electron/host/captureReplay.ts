import path from 'node:path';
import { CAPTURE_PATH_PREFIX, parseCapturePath } from '../../shared/capturePath.js';
import { documentKind, parseDocument } from '../engine/crawl/documents.js';
import { decodeContent } from '../engine/fetch/decompress.js';
import { WARC_DIR } from '../engine/store/archive.js';
import { canonicalize } from '../engine/url/canonical.js';
import { hrefBetween } from '../engine/url/localPath.js';
import { readResponsePayload } from '../engine/warc/readResponse.js';
import type { ArchiveQuery, QueryAnswers, QueryOf } from './archiveQueries.js';
import type { JobService } from './jobService.js';

export { CAPTURE_PATH_PREFIX };

/** Asks one archive a question (through its crawl worker while it runs). */
export type ArchiveAsk = <K extends ArchiveQuery['kind']>(q: QueryOf<K>) => Promise<QueryAnswers[K]>;

/** A file of an earlier capture, as the archive host serves it. */
export interface ReplayedFile {
  contentType: string;
  body: Buffer;
  /** Which capture it came from: the one asked for, or the nearest that has it. */
  capture: number;
}

/** Serves `@capture/<n>/<mirror path>` of one job: null when the archive holds no payload for that path. */
export type CaptureReplay = (jobId: string, capture: number, localPath: string) => Promise<ReplayedFile | null>;

/**
 * A mirror path as it was in capture `capture`, from the WARC record of that capture or, when it has
 * none there (removed, failed, not reached), of the nearest capture that has one. HTML and CSS have
 * their references rewritten as the mirror's are, relative to their own path, so served under
 * `@capture/<n>/` they lead to the same capture's versions of the page's resources. Null when no
 * capture of any URL at that path has a payload in the WARC files (the caller serves the mirror's file).
 */
export async function replayCapture(ask: ArchiveAsk, archiveDir: string, maxBytes: number, capture: number, localPath: string): Promise<ReplayedFile | null> {
  const found = await ask({ kind: 'captureAtPath', localPath, capture });
  if (!found?.capture?.record) return null;
  const c = found.capture;
  const payload = await readResponsePayload(path.join(archiveDir, WARC_DIR), c.record!);
  const body = await decodeContent(payload, c.contentEncoding, maxBytes);
  const contentType = c.contentType ?? 'application/octet-stream';
  const kind = documentKind(c.contentType, found.url);
  if (kind === 'other') return { contentType, body, capture: c.capture };
  const doc = parseDocument(kind, body, found.url, c.contentType);
  const targets = await ask({ kind: 'linkTargets', urls: doc.links.map((l) => canonicalize(l.url)) });
  let i = 0;
  const rendered = doc.render((link) => {
    const target = targets[i++] ?? null;
    return target === null ? null : hrefBetween(localPath, target, link.fragment || undefined);
  });
  return { contentType, body: rendered, capture: c.capture };
}

/** The capture and mirror path of a request's path segments under `@capture/<n>/`; null for any other. */
export function capturePathOf(segments: readonly string[]): { capture: number; localPath: string } | null {
  return segments[0] === CAPTURE_PATH_PREFIX ? parseCapturePath(segments.join('/')) : null;
}

/** The archive host's replay of earlier captures, over the job service (null before it has started). */
export function captureReplayOf(jobs: () => JobService | null): CaptureReplay {
  return async (jobId, capture, localPath) => {
    const service = jobs();
    if (service === null) return null;
    const { archiveDir, job } = service.get(jobId);
    return replayCapture((q) => service.query(jobId, q), archiveDir, job.fetch.maxResponseBytes, capture, localPath);
  };
}
