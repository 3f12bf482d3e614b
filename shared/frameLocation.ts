/**
 * How the viewer learns where the archived page navigated to. The page sits in a cross-origin,
 * sandboxed frame, so the viewer can't read its location; the archive servers add a one-line script
 * to each HTML page they serve (the file on disk is untouched). The script only says "I loaded"; the
 * page's address comes from the host, never from the message, which any script of the page could
 * forge: on the web host the message carries a one-time token the archive listener issued with that
 * frame's document (and only for frame navigations, so a page can't fetch another page's token); in
 * Electron the main process records each navigation of the viewer's frame.
 */
import { HIGHLIGHT_SCRIPT } from './frameHighlight.js';
import { LINK_SCRIPT } from './frameLinks.js';

export const LOCATION_MESSAGE = 'harvest:location';

/** The place of the job's id in AppInfo.viewerBase where it names the origin (`harvest-archive://{job}/`, `http://{job}.localhost:<port>/…`). */
export const JOB_PLACEHOLDER = '{job}';

/** Where a job's archived files are served (a viewerBase without the placeholder is a prefix for `<job>/`). */
export function archiveBase(viewerBase: string, jobId: string): string {
  const id = encodeURIComponent(jobId);
  return viewerBase.includes(JOB_PLACEHOLDER) ? viewerBase.replace(JOB_PLACEHOLDER, id) : `${viewerBase}${id}/`;
}

/**
 * The script added to archived pages (with the page's own scripts off, it is the only one that runs). It runs before the page's own scripts: it takes itself out of
 * the document, removes the page's WebRTC constructors (a browser can't be told to block WebRTC by a
 * header; see README, Security model), and tells the app window (`top`, so a page can't receive the
 * report of a frame it embeds) that it loaded, with the token of this document if it has one; then
 * it watches clicks on links that leave the archive. The search highlighter (frameHighlight.ts)
 * listens first, so that the app's answer to the report finds it.
 */
export function viewerScript(token: string | null): string {
  const message = token === null ? `{type:'${LOCATION_MESSAGE}'}` : `{type:'${LOCATION_MESSAGE}',token:'${token}'}`;
  return (
    HIGHLIGHT_SCRIPT +
    '(function(){var s=document.currentScript;if(s)s.remove();' +
    "['RTCPeerConnection','webkitRTCPeerConnection'].forEach(function(n){try{delete window[n]}catch(e){}});" +
    `top.postMessage(${message},'*')})();` +
    // The link watcher (frameLinks.ts): links to what the archive does not hold open the viewer's "not in this archive" page.
    LINK_SCRIPT
  );
}

/** The token of a location message ('' when it has none), or null when the message is something else. */
export function locationToken(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const { type, token } = data as { type?: unknown; token?: unknown };
  if (type !== LOCATION_MESSAGE) return null;
  return typeof token === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(token) ? token : '';
}

const HEAD_OPEN = /<head(?:\s[^>]*)?>/i;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/**
 * The page with the viewer's script inserted right after `<head>`; with no head, after the doctype
 * (a script before it would switch the page to quirks mode), else at the start (after a BOM).
 */
export function withViewerScript(html: Uint8Array, token: string | null, nonce?: string): Uint8Array {
  // With the page's own scripts off (CSP script-src 'nonce-…'), the nonce lets this one run alone.
  const open = nonce === undefined ? '<script>' : `<script nonce="${nonce}">`;
  const tag = new TextEncoder().encode(`${open}${viewerScript(token)}</script>`);
  const start = html[0] === 0xef && html[1] === 0xbb && html[2] === 0xbf ? 3 : 0;
  // windows-1252 maps each byte to one UTF-16 unit, so string offsets are byte offsets in any
  // ASCII-compatible charset the page may be in.
  const text = new TextDecoder('windows-1252').decode(html.subarray(start));
  const head = HEAD_OPEN.exec(text);
  const doctype = DOCTYPE.exec(text);
  const at = start + (head ? head.index + head[0].length : doctype ? doctype[0].length : 0);
  const out = new Uint8Array(html.length + tag.length);
  out.set(html.subarray(0, at));
  out.set(tag, at);
  out.set(html.subarray(at), at + tag.length);
  return out;
}

/**
 * Thumbnails are served by each archive's own origin beside its mirror, under this first path
 * segment, which no mirror path can start with (a mirror path starts with a host name or is the
 * start page): `<archive base>.thumbnails/<mirror path>.png` is `<archive>/thumbnails/<mirror path>.png`.
 */
export const THUMBNAIL_ROUTE = '.thumbnails';

/** The segments under THUMBNAIL_ROUTE that name a thumbnail file, or null for anything else (screenshots included). */
export function thumbnailSegments(segments: string[]): string[] | null {
  if (segments[0] !== THUMBNAIL_ROUTE || segments.length < 2) return null;
  const last = segments[segments.length - 1]!;
  return last.endsWith('.png') && !last.endsWith('.full.png') ? segments.slice(1) : null;
}
