import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { thumbnailSegments } from '../../shared/frameLocation.js';
import { MIRROR_DIR } from '../engine/store/archive.js';
import { THUMBNAILS_DIR } from '../engine/store/archiveFolder.js';
import { FrameTokens } from './frameTokens.js';
import { capturePath } from '../../shared/capturePath.js';
import { withViewerScript } from '../../shared/frameLocation.js';
import { capturePathOf, type CaptureReplay, type ReplayedFile } from './captureReplay.js';
import { hostAllowed, isHtml, newToken, safeSegments, sameSecret, sendFileWithin, sendText } from './httpGuards.js';

/** Finds a job's archive folder, or null when there is no such job. */
export type ArchiveDirOf = (jobId: string) => string | null;

/**
 * What an archived page may do: load what its own job's mirror holds, run its scripts, and nothing
 * else: no network beyond that folder, no forms, no popups, no navigating the app, no WebRTC where
 * the browser knows the directive (Chromium does not: see README, Security model), no camera,
 * microphone or location; only the app may frame it.
 */
export function viewerCsp(jobBase: string, appOrigin: string): string {
  const own = `${jobBase} data: blob:`;
  return [
    `default-src ${own}`,
    `script-src ${own} 'unsafe-inline' 'unsafe-eval'`,
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
 * A thumbnail is a picture Harvest made, shown by the app (another port) in its page lists, unlike
 * the archived files, which only their own archive may load. Chromium refuses a 'same-site' picture
 * from another 127.0.0.1 port to the app (ERR_BLOCKED_BY_RESPONSE.NotSameSite), so any origin may
 * embed it; the secret token in its URL is what keeps other pages from naming it.
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
  /** For the app's CSP: every archive origin (`http://127.0.0.1:*`, one port per archive). */
  frameSource: string;
  /** `http://127.0.0.1:<port>/<token>/`; `<job>/<path>` under it redirects to that job's own listener. */
  viewerBase: string;
  /** The mirror path a frame of this job was served, from the token its document reported; null if none. */
  frameLocation(jobId: string, token: string | undefined): string | null;
  close(): Promise<void>;
}

/**
 * Serves each job's mirror folder read-only on loopback, apart from the app's origin and each job on
 * an origin of its own: a listener per archive, started when the archive is first opened, so
 * archived sites share no storage or service-worker scope. The entry listener (viewerBase) only
 * redirects `<job>/<path>` there. A port rather than a `<job>.localhost` name keeps archives on the
 * app's site (127.0.0.1), where browsers allow a framed page its storage.
 */
export async function startMirrorServer(archiveDirOf: ArchiveDirOf, appOrigin: () => string, replay: CaptureReplay): Promise<MirrorServer> {
  const token = newToken();
  const tokens = new FrameTokens();
  const perJob = new Map<string, Promise<{ server: Server; port: number }>>();

  const jobListener = (jobId: string): Promise<{ server: Server; port: number }> => {
    let listener = perJob.get(jobId);
    if (!listener) {
      listener = listen((req, res, port) => {
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
        const jobBase = `http://127.0.0.1:${port}/${token}/`;
        const headers = {
          'Content-Security-Policy': viewerCsp(jobBase, appOrigin()),
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
              if (file !== null) sendReplayed(req, res, file, headers, token);
              // Nothing in the WARC files for that path: the mirror's copy, the only one there is.
              else if (!sendFileWithin(req, res, root, earlier.localPath.split('/'), headers, token)) sendText(res, 404, 'not in this archive');
            },
            (e: unknown) => sendText(res, 500, `cannot read capture ${earlier.capture} of ${earlier.localPath}: ${(e as Error).message}`),
          );
          return;
        }
        const archivedPage = (file: string) => (framed ? tokens.issue(jobId, mirrorPath(root, file)) : null);
        if (!sendFileWithin(req, res, root, segments, headers, archivedPage)) sendText(res, 404, 'not in this archive');
      });
      perJob.set(jobId, listener);
    }
    return listener;
  };

  const entry = await listen((req, res) => {
    if (refused(req, res)) return;
    const url = req.url ?? '/';
    const [, first, jobId, ...rest] = pathOf(req).split('/');
    if (first === undefined || !sameSecret(first, token) || !jobId || archiveDirOf(jobId) === null) return sendText(res, 404, 'not found');
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    void jobListener(jobId).then(
      ({ port }) => sendText(res, 307, 'moved', { Location: `http://127.0.0.1:${port}/${token}/${rest.join('/')}${query}` }),
      () => sendText(res, 503, 'cannot open a listener for this archive'),
    );
  });

  return {
    frameSource: 'http://127.0.0.1:*',
    viewerBase: `http://127.0.0.1:${entry.port}/${token}/`,
    frameLocation: (jobId, frameToken) => (frameToken ? tokens.redeem(jobId, frameToken) : null),
    async close() {
      const servers = [entry.server, ...(await Promise.allSettled(perJob.values())).flatMap((r) => (r.status === 'fulfilled' ? [r.value.server] : []))];
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, port: number) => void;

/** A listener on a free 127.0.0.1 port that answers only requests naming it in their Host header. */
async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req, port)) return sendText(res, 403, 'wrong Host header');
    handler(req, res, port);
  });
  return { server, port };
}

/** Answers what no archive listener serves; true when it did. */
function refused(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
  // A service worker would answer the archive's later requests itself, without this listener's CSP.
  else if (req.headers['service-worker'] !== undefined) sendText(res, 403, 'service workers are not allowed in archived pages');
  else if (req.headers['sec-fetch-dest'] === 'document') sendText(res, 403, TOP_LEVEL_REFUSED);
  else return false;
  return true;
}

/** A file of an earlier capture, with the viewer's script in an HTML page. */
function sendReplayed(req: IncomingMessage, res: ServerResponse, file: ReplayedFile, headers: Record<string, string>, token: () => string | null): void {
  const body = isHtml(file.contentType) ? Buffer.from(withViewerScript(file.body, token())) : file.body;
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
