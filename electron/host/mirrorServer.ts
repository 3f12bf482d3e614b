import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MIRROR_DIR } from '../engine/store/archive.js';
import { hostAllowed, newToken, safeSegments, sameSecret, sendFileWithin, sendText } from './httpGuards.js';

/** Finds a job's archive folder, or null when there is no such job. */
export type ArchiveDirOf = (jobId: string) => string | null;

/**
 * What an archived page may do: load what its own job's mirror holds (by path, so not another
 * job's files on this origin), run its scripts, and nothing else: no network beyond that folder, no
 * forms, no popups, no navigating the app; only the app may frame it.
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
    'sandbox allow-scripts allow-same-origin',
  ].join('; ');
}

export interface MirrorServer {
  server: Server;
  origin: string;
  /** `http://127.0.0.1:<port>/<token>/`; a job's files are under `<jobId>/`. */
  viewerBase: string;
  close(): Promise<void>;
}

/** Serves each job's mirror folder read-only on its own loopback listener, apart from the app's origin. */
export async function startMirrorServer(archiveDirOf: ArchiveDirOf, appOrigin: () => string): Promise<MirrorServer> {
  const token = newToken();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const viewerBase = `${origin}/${token}/`;
  server.on('request', (req, res) => {
    if (!hostAllowed(req, port)) return sendText(res, 403, 'wrong Host header');
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
    const pathname = (req.url ?? '/').split(/[?#]/)[0]!;
    const [, first, jobId, ...rest] = pathname.split('/');
    if (first === undefined || !sameSecret(first, token) || !jobId) return sendText(res, 404, 'not found');
    const dir = archiveDirOf(jobId);
    const segments = safeSegments(rest.filter((s) => s !== ''));
    if (dir === null || segments === null) return sendText(res, 404, 'not found');
    const headers = {
      'Content-Security-Policy': viewerCsp(`${viewerBase}${encodeURIComponent(jobId)}/`, appOrigin()),
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (!sendFileWithin(req, res, path.join(dir, MIRROR_DIR), segments, headers, true)) sendText(res, 404, 'not in this archive');
  });
  return {
    server,
    origin,
    viewerBase,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
