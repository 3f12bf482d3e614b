import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentType } from 'mime-types';
import { withViewerScript } from '../../shared/frameLocation.js';

/** A URL-safe secret that names the only paths a listener answers. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The Host header must name this loopback listener: a page on another site that rebinds its DNS name
 * to 127.0.0.1 sends its own name there and is turned away.
 */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const h = req.headers.host;
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** Cross-site requests are refused: the browser names their origin (Origin, Sec-Fetch-Site) and it isn't ours. */
export function sameOriginRequest(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(text);
}

/**
 * Path segments after a listener's prefix, decoded; null when any would step out of its folder
 * ('.', '..', a separator or NUL hidden in an escape).
 */
export function safeSegments(encoded: string[]): string[] | null {
  const out: string[] = [];
  for (const seg of encoded) {
    let s: string;
    try {
      s = decodeURIComponent(seg);
    } catch {
      return null;
    }
    if (s === '.' || s === '..' || /[/\\\0]/.test(s)) return null;
    out.push(s);
  }
  return out;
}

/**
 * The file a request names inside `root`, after resolving symlinks (a folder means its index.html);
 * null when there is none or it lies outside.
 */
export function resolveFileWithin(root: string, segments: string[]): string | null {
  let realRoot: string;
  let file: string;
  try {
    // A root that is itself a link (a crafted archive's mirror/) could point anywhere.
    if (lstatSync(root).isSymbolicLink()) return null;
    realRoot = realpathSync(root);
    file = realpathSync(path.join(realRoot, ...segments));
    if (statSync(file).isDirectory()) file = realpathSync(path.join(file, 'index.html'));
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  return file === realRoot || !file.startsWith(realRoot + path.sep) ? null : file;
}

export function mimeTypeOf(file: string): string {
  return contentType(path.basename(file)) || 'application/octet-stream';
}

export function isHtml(mimeType: string): boolean {
  return mimeType.startsWith('text/html');
}

/** An archived HTML page as served to the viewer: with the viewer's script (see shared/frameLocation.ts). */
export function archivedHtml(file: string, token: string | null, nonce?: string): Uint8Array {
  return withViewerScript(readFileSync(file), token, nonce);
}

/**
 * Sends a file that lies inside `root` (see resolveFileWithin); false when there is none. With
 * `archivedPage`, HTML pages get the viewer's script, with the token it returns for the file and the
 * CSP nonce that lets it run (the file itself is untouched).
 */
export function sendFileWithin(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  segments: string[],
  headers: Record<string, string>,
  archivedPage?: (file: string) => string | null,
  nonce?: string,
): boolean {
  const file = resolveFileWithin(root, segments);
  if (file === null) return false;
  const type = mimeTypeOf(file);
  const html = archivedPage && isHtml(type) ? archivedHtml(file, archivedPage(file), nonce) : null;
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(html ? html.length : statSync(file).size),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  if (req.method === 'HEAD') res.end();
  else if (html) res.end(html);
  else createReadStream(file).pipe(res);
  return true;
}
