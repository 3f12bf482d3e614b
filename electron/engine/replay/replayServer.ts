import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The folder of the `replaywebpage` package (ReplayWeb.page's own ui.js and sw.js). */
export function replayWebPageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('replaywebpage/index.html'));
}

/** Where the embedding page puts ReplayWeb.page: its service worker's scope and inner frame. */
const REPLAY_BASE = '/replay/';
/** The size the replay is shown at; the analysis sets it to its viewport. */
export interface ReplayViewport {
  width: number;
  height: number;
}

export interface ReplayServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The embedding page for one archived URL (and time, 14 digits; default the one ReplayWeb.page picks). */
  embedUrl(pageUrl: string, ts?: string): string;
  close(): Promise<void>;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Serves one WACZ through ReplayWeb.page on 127.0.0.1, nothing from the network: its ui.js and
 * sw.js under /replay/ (the inner frame's page with them), the WACZ with the byte ranges
 * ReplayWeb.page reads it by, and an embedding page per archived URL, `/?url=…&ts=…`, that shows
 * only the replayed page (`embed="replayonly"`) at the given size with no margin. Each embedding
 * page names its page itself, so pages can be replayed side by side in one browser context, the
 * service worker loading the WACZ's index once. It can stand as a browser's proxy too: asked for any
 * other origin it answers 403 (and no CONNECT), so a browser using it reaches nothing else.
 */
export function startReplayServer(wacz: string, viewport: ReplayViewport, home?: { url: string; ts?: string }): Promise<ReplayServer> {
  const rwp = replayWebPageDir();
  const files: Record<string, { file: string; type: string }> = {
    [`${REPLAY_BASE}ui.js`]: { file: path.join(rwp, 'ui.js'), type: 'application/javascript' },
    [`${REPLAY_BASE}sw.js`]: { file: path.join(rwp, 'sw.js'), type: 'application/javascript' },
    '/archive.wacz': { file: wacz, type: 'application/wacz+zip' },
  };
  const inner = `<!doctype html><html><head><meta charset="utf-8"><script src="./ui.js"></script></head><body><replay-app-main></replay-app-main></body></html>`;
  const embed = (url: string, ts: string | null) => `<!doctype html><html style="margin:0;overflow:hidden"><head><meta charset="utf-8"><script src="${REPLAY_BASE}ui.js"></script></head>
<body style="margin:0;overflow:hidden"><replay-web-page source="/archive.wacz" url="${escapeAttr(url)}"${ts ? ` ts="${escapeAttr(ts)}"` : ''} replayBase="${REPLAY_BASE}" embed="replayonly" style="display:block;border:0;width:${viewport.width}px;height:${viewport.height}px"></replay-web-page></body></html>`;
  let origin = '';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // As a browser's proxy it is asked for absolute URLs: only its own are answered.
    const asked = new URL(req.url ?? '/', origin);
    if (asked.origin !== origin) return void res.writeHead(403).end();
    const { pathname, searchParams } = asked;
    if (pathname === '/' || pathname === '/index.html') {
      const url = searchParams.get('url') ?? home?.url;
      if (url === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(embed(url, searchParams.get('ts') ?? home?.ts ?? null));
      return;
    }
    if (pathname === REPLAY_BASE || pathname === `${REPLAY_BASE}index.html`) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(inner);
      return;
    }
    const f = files[pathname];
    if (!f) return void res.writeHead(404).end();
    const size = statSync(f.file).size;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'Content-Type': f.type,
      'Accept-Ranges': 'bytes',
      'Content-Length': String(end - start + 1),
      // The service worker must be allowed to control the whole replay folder.
      ...(pathname.endsWith('sw.js') && { 'Service-Worker-Allowed': REPLAY_BASE }),
      ...(range && { 'Content-Range': `bytes ${start}-${end}/${size}` }),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(f.file, { start, end }).pipe(res);
  };
  const server = createServer(handle);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      resolve({
        origin,
        embedUrl: (pageUrl, ts) => `${origin}/?${new URLSearchParams({ url: pageUrl, ...(ts !== undefined && { ts }) })}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
