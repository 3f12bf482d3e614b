import assert from 'node:assert/strict';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame } from 'playwright-core';
import { PROJECT_ROOT } from './benchSite.js';

/** Debian's Chromium, which the replay tests drive (they are skipped where it is missing). */
export const CHROMIUM = '/usr/bin/chromium';

const RWP_DIR = path.join(PROJECT_ROOT, 'node_modules', 'replaywebpage');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/**
 * Serves ReplayWeb.page's ui.js and sw.js, an embedding page and the WACZ, with the byte ranges
 * ReplayWeb.page reads a WACZ by. `/?page=…&at=…` embeds another page (or time) of the same WACZ,
 * which the service worker has loaded once for the origin (one page at a time).
 */
export function startViewerServer(wacz: string, pageUrl: string, ts?: string): Promise<{ server: Server; origin: string }> {
  const embed = (url: string, at: string | null) => `<!doctype html><meta charset="utf-8"><script src="/ui.js"></script>
<replay-web-page source="/archive.wacz" url="${url}"${at ? ` ts="${at}"` : ''} replayBase="/" embed="replayonly" style="display:block;width:1200px;height:900px"></replay-web-page>`;
  let shown = { url: pageUrl, at: ts ?? null };
  const files: Record<string, { file: string; type: string }> = {
    '/ui.js': { file: path.join(RWP_DIR, 'ui.js'), type: 'application/javascript' },
    '/sw.js': { file: path.join(RWP_DIR, 'sw.js'), type: 'application/javascript' },
    '/archive.wacz': { file: wacz, type: 'application/wacz+zip' },
  };
  const server = createServer((req, res) => {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://x');
    if (pathname === '/' || pathname === '/index.html') {
      // ReplayWeb.page's own frame loads `/` again: it gets the page last asked for.
      const page = searchParams.get('page');
      if (page !== null) shown = { url: page, at: searchParams.get('at') };
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(embed(shown.url, shown.at));
      return;
    }
    const f = files[pathname];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    const size = statSync(f.file).size;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'Content-Type': f.type,
      'Accept-Ranges': 'bytes',
      'Content-Length': String(end - start + 1),
      ...(range && { 'Content-Range': `bytes ${start}-${end}/${size}` }),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(f.file, { start, end }).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, origin: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` });
    }),
  );
}

/**
 * The replay frame of `pageUrl` in ReplayWeb.page's embed, once loaded: the iframe whose URL ends
 * with the archived URL (…/<ts>mp_/<url>). With `ts`, that page at that time is embedded.
 */
export async function replayFrame(
  opener: Browser | BrowserContext,
  origin: string,
  pageUrl: string,
  opts: { ts?: string; timeoutMs?: number } = {},
): Promise<Frame> {
  const page = await opener.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(opts.ts === undefined ? `${origin}/` : `${origin}/?${new URLSearchParams({ page: pageUrl, at: opts.ts })}`);
  let frame: Frame | undefined;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!frame && Date.now() < deadline) {
    frame = page.frames().find((f) => f.url().endsWith(pageUrl) && f.url().includes('mp_/'));
    if (!frame) await page.waitForTimeout(250);
  }
  assert.ok(frame, `a replay frame for ${pageUrl} (frames: ${page.frames().map((f) => f.url()).join(', ')})`);
  await frame.waitForLoadState('load');
  return frame;
}

