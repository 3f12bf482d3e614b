import { existsSync } from 'node:fs';
import path from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { HostEvent } from '../../shared/contract.js';
import { API_SEGMENT, EVENTS_PATH, REPORT_SEGMENT, TOKEN_SEGMENT } from '../../shared/webRoutes.js';
import { WEB_SHELL_ACTIONS } from './commands.js';
import { startEngineHost, type EngineHost } from './engineHost.js';
import type { ExporterMap } from './exportManager.js';
import { hostAllowed, newToken, safeSegments, sameOriginRequest, sameSecret, sendFileWithin, sendText } from './httpGuards.js';
import { captureReplayOf } from './captureReplay.js';
import { sendCdx } from './cdxApi.js';
import { MEMENTO_SEGMENTS, sendMemento, type MementoSegment } from './memento.js';
import { MAX_HEADER_BYTES, startMirrorServer } from './mirrorServer.js';
import { viewerScriptsIn } from './viewerScripts.js';
import { appCsp } from './appCsp.js';
import { sendTokenlessPage } from './tokenlessPage.js';
import { sendExport, sendReport } from './downloads.js';

/** `/t/<token>/download/<exportId>`: a finished export's file. */
const DOWNLOAD_SEGMENT = 'download';
/** The CDX server API of an archive: cdx/<job-id>?url=… (cdxApi.ts). */
const CDX_SEGMENT = 'cdx';

/** dist/renderer, built by `npm run build:renderer`. */
export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../renderer/', import.meta.url));

const MAX_BODY_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/** A client that stops reading its events is dropped rather than buffered without end. */
const MAX_EVENT_BACKLOG_BYTES = 16 * 1024 * 1024;

export interface WebHostOptions {
  dataDir: string;
  /** The app's port (0: any free one). */
  port?: number;
  /** The archive viewer's port, one for every archive (0: any free one). */
  viewerPort?: number;
  rendererDir?: string;
  exporters?: ExporterMap;
  progressIntervalMs?: number;
}

export interface WebHost {
  /** The app's address with its token: the only way in. */
  url: string;
  viewerBase: string;
  /** The port every archive's pages are served on. */
  viewerPort: number;
  engine: EngineHost;
  /** Pauses running crawls (checkpointed), then closes both listeners. */
  close(): Promise<void>;
}

/** `harvest serve`: the engine and the renderer over HTTP on 127.0.0.1, behind a random token. */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const rendererDir = opts.rendererDir ?? DEFAULT_RENDERER_DIR;
  const token = newToken();
  let appOrigin = '';
  let engine: EngineHost | null = null;
  const scripts = viewerScriptsIn(opts.dataDir);
  const mirror = await startMirrorServer(
    (jobId) => {
      try {
        return engine?.jobs.get(jobId).archiveDir ?? null;
      } catch {
        return null;
      }
    },
    () => appOrigin,
    captureReplayOf(() => engine?.jobs ?? null),
    { port: opts.viewerPort ?? 0, scriptsAllowed: scripts.allowed },
  );
  // Cookies mean nothing to the app, but another 127.0.0.1 service's could fill its headers (see MAX_HEADER_BYTES).
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    engine = startEngineHost({
      dataDir: opts.dataDir,
      exporters: opts.exporters ?? {},
      shell: { host: 'web', viewerBase: mirror.viewerBase, ...WEB_SHELL_ACTIONS, frameLocation: mirror.frameLocation, scripts },
      downloadBase: `/${TOKEN_SEGMENT}/${token}/${DOWNLOAD_SEGMENT}/`,
      ...(opts.progressIntervalMs !== undefined && { progressIntervalMs: opts.progressIntervalMs }),
    });
  } catch (e) {
    server.close();
    await mirror.close();
    throw e;
  }
  const host = engine;
  const port = (server.address() as AddressInfo).port;
  appOrigin = `http://127.0.0.1:${port}`;
  const pageHeaders = {
    'Content-Security-Policy': appCsp(mirror.frameSource),
    // The token is in the URL: never send it on as a referrer.
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req, port)) return sendText(res, 403, 'wrong Host header');
    const pathname = (req.url ?? '/').split(/[?#]/)[0]!;
    const [, seg, tok, ...rest] = pathname.split('/');
    if (seg !== TOKEN_SEGMENT || tok === undefined || !sameSecret(tok, token)) {
      if (req.method === 'GET' || req.method === 'HEAD') return sendTokenlessPage(res, req.method === 'HEAD');
      return sendText(res, 404, 'not found');
    }
    // Relative URLs in the page (app.js, app.css) need the base to end in '/'.
    if (rest.length === 0) return sendText(res, 308, 'moved', { Location: `/${TOKEN_SEGMENT}/${token}/` });
    if (rest[0] === API_SEGMENT) {
      if (rest.length === 2 && rest[1] === EVENTS_PATH && req.method === 'GET') return streamEvents(req, res, host);
      if (rest.length === 2 && req.method === 'POST') return void runCommand(req, res, host, port, rest[1]!);
      return sendText(res, 404, 'not found');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
    if (rest[0] === DOWNLOAD_SEGMENT && rest.length === 2) return sendExport(req, res, host, rest[1]!);
    if (rest[0] === REPORT_SEGMENT && rest.length === 2) return void sendReport(req, res, host, rest[1]!);
    if (rest[0] === CDX_SEGMENT && rest.length === 2) {
      return void sendCdx(req, res, host, rest[1]!).catch((e: unknown) => sendText(res, 500, `cannot answer: ${(e as Error).message}`));
    }
    if ((MEMENTO_SEGMENTS as readonly string[]).includes(rest[0]!) && rest.length > 2) {
      // The archived URL follows the job id whole, its query string included.
      const prefix = `/${TOKEN_SEGMENT}/${tok}/${rest[0]}/`;
      const tail = (req.url ?? '').slice(prefix.length);
      const base = `${appOrigin}/${TOKEN_SEGMENT}/${token}/`;
      return void sendMemento(req, res, host, base, rest[0] as MementoSegment, tail).catch((e: unknown) => sendText(res, 500, `cannot answer: ${(e as Error).message}`));
    }
    if (!existsSync(rendererDir) || !existsSync(`${rendererDir}/index.html`)) {
      return sendText(res, 404, `The Harvest app is not built: run 'npm run build' (it builds the renderer into ${rendererDir}).`);
    }
    const segments = safeSegments(rest.filter((s) => s !== ''));
    if (segments === null || !sendFileWithin(req, res, rendererDir, segments, pageHeaders)) sendText(res, 404, 'not found');
  });

  return {
    url: `${appOrigin}/${TOKEN_SEGMENT}/${token}/`,
    viewerBase: mirror.viewerBase,
    viewerPort: mirror.port,
    engine: host,
    async close() {
      await host.shutdown();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mirror.close();
    },
  };
}

async function runCommand(req: IncomingMessage, res: ServerResponse, host: EngineHost, port: number, command: string): Promise<void> {
  if (!sameOriginRequest(req, port)) return sendText(res, 403, 'cross-origin request refused');
  // A JSON content type can't be sent by a plain form or a no-CORS fetch, which keeps other pages out too.
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return sendText(res, 415, 'send JSON (Content-Type: application/json)');
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req, MAX_BODY_BYTES));
  } catch (e) {
    if (e instanceof BodyTooLarge) return sendText(res, 413, 'request body too large', { Connection: 'close' });
    return sendText(res, 400, 'the body is not valid JSON');
  }
  // Command names are plain ASCII; anything escaped is simply an unknown command.
  const reply = await host.handle(command, body);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(JSON.stringify(reply));
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    if (Number(req.headers['content-length'] ?? 0) > limit) return reject(new BodyTooLarge());
    req.on('data', (c: Buffer) => {
      size += c.length;
      // Past the limit the rest is read and dropped, so the 413 answer still reaches the client.
      if (size > limit) reject(new BodyTooLarge());
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function streamEvents(req: IncomingMessage, res: ServerResponse, host: EngineHost): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Content-Type-Options': 'nosniff',
  });
  res.write('retry: 2000\n\n');
  const send = (e: HostEvent) => {
    if (res.writableLength > MAX_EVENT_BACKLOG_BYTES) return res.destroy();
    res.write(`data: ${JSON.stringify(e)}\n\n`);
  };
  const unsubscribe = host.onEvent(send);
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}
