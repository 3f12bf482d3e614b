import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { JOB_PLACEHOLDER, thumbnailSegments } from '../../shared/frameLocation.js';
import { MIRROR_DIR } from '../engine/store/archive.js';
import { THUMBNAILS_DIR } from '../engine/store/archiveFolder.js';
import { archivedHtml, isHtml, mimeTypeOf, resolveFileWithin, safeSegments } from '../host/httpGuards.js';
import { withViewerScript } from '../../shared/frameLocation.js';
import { capturePathOf, type CaptureReplay, type ReplayedFile } from '../host/captureReplay.js';
import { APP_SCHEME } from './senderCheck.js';
import { appCsp } from '../host/appCsp.js';

export const ARCHIVE_SCHEME = 'harvest-archive';
/** AppInfo.viewerBase in the desktop app: `harvest-archive://<jobId>/<localPath>`, one origin per job. */
export const ARCHIVE_VIEWER_BASE = `${ARCHIVE_SCHEME}://${JOB_PLACEHOLDER}/`;

/** The renderer's policy: its own code only, archives only in frames, no network at all. */
const APP_CSP = appCsp(`${ARCHIVE_SCHEME}:`);

/**
 * An archived page's policy: what its own job's origin holds, its scripts, nothing else; no forms,
 * popups or top navigation (sandbox), framed only by the app.
 */
const ARCHIVE_CSP = [
  "default-src 'self' data: blob:",
  "script-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' data: blob: 'unsafe-inline'",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  `frame-ancestors ${APP_SCHEME}://app`,
  'sandbox allow-scripts allow-same-origin',
].join('; ');

/** Must run before the app is ready: both schemes behave like https origins (standard, secure). */
export function registerSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    { scheme: ARCHIVE_SCHEME, privileges: { standard: true, secure: true, stream: true } },
  ]);
}

/**
 * With `archivedPage`, HTML pages get the viewer's script (the file itself is untouched); here it
 * carries no token: the main process sees the viewer frame's navigations itself (viewerFrames.ts).
 */
function fileResponse(file: string, csp: string, archivedPage = false): Response {
  const type = mimeTypeOf(file);
  const html = archivedPage && isHtml(type) ? archivedHtml(file, null) : null;
  const body = html ?? (Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>);
  return new Response(body, {
    headers: {
      'Content-Type': type,
      'Content-Length': String(html ? html.length : statSync(file).size),
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/**
 * `@capture/<n>/<path>`: that capture's version from the WARC files (see captureReplay.ts), else the
 * mirror's copy; under the archive's own origin and policy, with the viewer's script in HTML.
 */
async function replayResponse(replay: CaptureReplay, jobId: string, mirror: string, capture: number, localPath: string): Promise<Response> {
  let replayed: ReplayedFile | null;
  try {
    replayed = await replay(jobId, capture, localPath);
  } catch (e) {
    return new Response(`cannot read capture ${capture} of ${localPath}: ${(e as Error).message}`, { status: 500, headers: { 'Content-Type': 'text/plain' } });
  }
  if (replayed === null) {
    const file = resolveFileWithin(mirror, localPath.split('/'));
    return file === null ? notFound() : fileResponse(file, ARCHIVE_CSP, true);
  }
  const body = isHtml(replayed.contentType) ? withViewerScript(replayed.body, null) : replayed.body;
  return new Response(new Uint8Array(body), {
    headers: {
      'Content-Type': replayed.contentType,
      'Content-Length': String(body.length),
      'Content-Security-Policy': ARCHIVE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

const notFound = () => new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/** Segments of a request's path, decoded and checked (see safeSegments). */
function segmentsOf(url: URL): string[] | null {
  return safeSegments(url.pathname.split('/').filter((s) => s !== ''));
}

/**
 * harvest-app://app/... serves the built renderer; harvest-archive://<jobId>/... serves only that
 * job's mirror folder. Anything else, or outside those folders, is a 404.
 */
export function handleSchemes(rendererDir: string, archiveDirOf: (jobId: string) => string | null, replay: CaptureReplay): void {
  protocol.handle(APP_SCHEME, (req) => {
    const url = new URL(req.url);
    const segments = segmentsOf(url);
    if (url.host !== 'app' || segments === null) return notFound();
    const file = resolveFileWithin(rendererDir, segments);
    return file === null ? notFound() : fileResponse(file, APP_CSP);
  });
  protocol.handle(ARCHIVE_SCHEME, (req) => {
    // The scheme has no service-worker privilege; refused here too, as on the web host.
    if (req.headers.has('service-worker')) return new Response('service workers are not allowed', { status: 403 });
    const url = new URL(req.url);
    const dir = archiveDirOf(url.host);
    const segments = segmentsOf(url);
    if (dir === null || segments === null) return notFound();
    // The archive's thumbnails (shared/frameLocation.ts THUMBNAIL_ROUTE), pictures Harvest made: no script, no page policy needed.
    const thumbnail = thumbnailSegments(segments);
    if (thumbnail !== null) {
      const picture = resolveFileWithin(path.join(dir, THUMBNAILS_DIR), thumbnail);
      return picture === null ? notFound() : fileResponse(picture, "default-src 'none'");
    }
    const mirror = path.join(dir, MIRROR_DIR);
    const earlier = capturePathOf(segments);
    if (earlier !== null) return replayResponse(replay, url.host, mirror, earlier.capture, earlier.localPath);
    const file = resolveFileWithin(mirror, segments);
    return file === null ? notFound() : fileResponse(file, ARCHIVE_CSP, true);
  });
}
