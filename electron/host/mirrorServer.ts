import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { thumbnailSegments } from '../../shared/frameLocation.js';
import { MIRROR_DIR } from '../engine/store/archive.js';
import { THUMBNAILS_DIR } from '../engine/store/archiveFolder.js';
import { FrameTokens } from './frameTokens.js';
import { capturePath } from '../../shared/capturePath.js';
import { JOB_PLACEHOLDER, withViewerScript } from '../../shared/frameLocation.js';
import { ARCHIVE_HOST_SUFFIX, archiveOrigin, jobOfHost } from './archiveHosts.js';
import { capturePathOf, type CaptureReplay, type ReplayedFile } from './captureReplay.js';
import { isHtml, newToken, safeSegments, sameSecret, sendFileWithin, sendText } from './httpGuards.js';

/** Finds a job's archive folder, or null when there is no such job. */
export type ArchiveDirOf = (jobId: string) => string | null;

/**
 * What an archived page may do: load what its own job's mirror holds, run its scripts if the
 * archivist allowed them for this archive, and nothing else: no network beyond that folder, no forms,
 * no popups, no navigating the app, no WebRTC where the browser knows the directive (Chromium does
 * not: see README, Security model), no camera, microphone or location; only the app may frame it.
 * With scripts off, `nonce` lets the viewer's own script run and nothing else: no page script,
 * handler, `javascript:` URL or worker, and no frame but the archive's own (a `data:` or `blob:`
 * document might not inherit this policy).
 */
export function viewerCsp(jobBase: string, appOrigin: string, nonce: string | null = null): string {
  const own = `${jobBase} data: blob:`;
  const scripts = nonce === null ? [`script-src ${own} 'unsafe-inline' 'unsafe-eval'`] : [`script-src 'nonce-${nonce}'`, "worker-src 'none'", `frame-src ${jobBase}`, "object-src 'none'"];
  return [
    `default-src ${own}`,
    ...scripts,
    `style-src ${own} 'unsafe-inline'`,
    `connect-src ${jobBase}`,
    `base-uri ${jobBase}`,
    "form-action 'none'",
    `frame-ancestors ${appOrigin}`,
    "webrtc 'block'",
    'sandbox allow-scripts allow-same-origin',
  ].join('; ');
}

/**
 * A thumbnail is a picture Harvest made, shown by the app (another site) in its page lists, unlike
 * the archived files, which only their own archive may load: any origin may embed it; the secret
 * token in its URL is what keeps other pages from naming it.
 */
const THUMBNAIL_HEADERS = {
  'Content-Security-Policy': "default-src 'none'",
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), display-capture=(), payment=(), usb=()';

/** A top-level tab could navigate anywhere (no browser enforces a navigation policy): archived pages open only in a frame. */
const TOP_LEVEL_REFUSED =
  "Archived pages open only inside Harvest's viewer, where they are sealed off from the network. Open this archive from the Library of the Harvest app.";

export interface MirrorServer {
  /** For the app's CSP: the archive origins, every `<job>.localhost` name on the viewer port. */
  frameSource: string;
  /** `http://{job}.localhost:<port>/<token>/` (shared/frameLocation.ts archiveBase fills in the job). */
  viewerBase: string;
  port: number;
  /** The mirror path a frame of this job was served, from the token its document reported; null if none. */
  frameLocation(jobId: string, token: string | undefined): string | null;
  close(): Promise<void>;
}

export interface MirrorServerOptions {
  /** The viewer's port; 0 (the default) takes any free one. */
  port?: number;
  /** Whether the archived pages' own scripts may run; they all may when not given. */
  scriptsAllowed?: (jobId: string) => boolean;
}

/**
 * Cookies are ignored here, but Chromium may send up to 180 of 4 kB each to a host; past Node's
 * 16 kB of headers every request would fail with 431, so a page could lock its archive out.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * Serves each job's mirror folder read-only on one loopback port, apart from the app's origin and
 * each job on an origin of its own, `<job>.localhost`: archived sites share no cookies, storage or
 * service-worker scope with each other or with the app (127.0.0.1). Framed by the app, an archive is
 * a third-party frame: Chromium 156 gives it storage partitioned under the app's site (per archive
 * origin still) and, blocking third-party cookies, no cookies at all.
 */
export async function startMirrorServer(archiveDirOf: ArchiveDirOf, appOrigin: () => string, replay: CaptureReplay, opts: MirrorServerOptions = {}): Promise<MirrorServer> {
  const token = newToken();
  const tokens = new FrameTokens();
  const scriptsAllowed = opts.scriptsAllowed ?? (() => true);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const jobId = jobOfHost(req, port);
    if (jobId === null) return sendText(res, 403, 'wrong Host header');
    if (refused(req, res)) return;
    const [, first, ...rest] = pathOf(req).split('/');
    if (first === undefined || !sameSecret(first, token)) return sendText(res, 404, 'not found');
    const dir = archiveDirOf(jobId);
    const segments = safeSegments(rest.filter((s) => s !== ''));
    if (dir === null || segments === null) return sendText(res, 404, 'not found');
    const thumbnail = thumbnailSegments(segments);
    if (thumbnail !== null) {
      if (!sendFileWithin(req, res, path.join(dir, THUMBNAILS_DIR), thumbnail, THUMBNAIL_HEADERS)) sendText(res, 404, 'no thumbnail');
      return;
    }
    const root = path.join(dir, MIRROR_DIR);
    const jobBase = `${archiveOrigin(jobId, port)!}/${token}/`;
    const nonce = scriptsAllowed(jobId) ? null : newToken();
    const headers = {
      'Content-Security-Policy': viewerCsp(jobBase, appOrigin(), nonce),
      'Permissions-Policy': PERMISSIONS_POLICY,
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    // Only a document loaded into a frame gets a token, so a page can't fetch one for another path.
    const framed = req.headers['sec-fetch-dest'] === 'iframe' || req.headers['sec-fetch-dest'] === 'frame';
    const earlier = capturePathOf(segments);
    if (earlier !== null) {
      // An earlier capture's page reports its own path, so the viewer knows which capture it shows.
      const token = () => (framed ? tokens.issue(jobId, capturePath(earlier.capture, earlier.localPath)) : null);
      void replay(jobId, earlier.capture, earlier.localPath).then(
        (file) => {
          if (file !== null) sendReplayed(req, res, file, headers, token, nonce);
          // Nothing in the WARC files for that path: the mirror's copy, the only one there is.
          else if (!sendFileWithin(req, res, root, earlier.localPath.split('/'), headers, token, nonce ?? undefined)) sendText(res, 404, 'not in this archive');
        },
        (e: unknown) => sendText(res, 500, `cannot read capture ${earlier.capture} of ${earlier.localPath}: ${(e as Error).message}`),
      );
      return;
    }
    const archivedPage = (file: string) => (framed ? tokens.issue(jobId, mirrorPath(root, file)) : null);
    if (!sendFileWithin(req, res, root, segments, headers, archivedPage, nonce ?? undefined)) sendText(res, 404, 'not in this archive');
  });

  return {
    frameSource: `http://*${ARCHIVE_HOST_SUFFIX}:${port}`,
    viewerBase: `http://${JOB_PLACEHOLDER}${ARCHIVE_HOST_SUFFIX}:${port}/${token}/`,
    port,
    frameLocation: (jobId, frameToken) => (frameToken ? tokens.redeem(jobId, frameToken) : null),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers what the archive listener never serves; true when it did. */
function refused(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
  // A service worker would answer the archive's later requests itself, without this listener's CSP.
  else if (req.headers['service-worker'] !== undefined) sendText(res, 403, 'service workers are not allowed in archived pages');
  else if (req.headers['sec-fetch-dest'] === 'document') sendText(res, 403, TOP_LEVEL_REFUSED);
  else return false;
  return true;
}

/** A file of an earlier capture, with the viewer's script in an HTML page. */
function sendReplayed(req: IncomingMessage, res: ServerResponse, file: ReplayedFile, headers: Record<string, string>, token: () => string | null, nonce: string | null): void {
  const body = isHtml(file.contentType) ? Buffer.from(withViewerScript(file.body, token(), nonce ?? undefined)) : file.body;
  res.writeHead(200, { ...headers, 'Content-Type': file.contentType, 'Content-Length': String(body.length), 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split(/[?#]/)[0]!;
}

/** A served file's path inside the mirror, '/'-separated, as the viewer names pages. */
function mirrorPath(root: string, file: string): string {
  return path.relative(realpathSync(root), file).split(path.sep).join('/');
}
