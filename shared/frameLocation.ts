/**
 * How an archived page tells the viewer where it is. The page sits in a cross-origin, sandboxed
 * frame, so the viewer can't read its location; the archive servers add this one-line script to
 * each HTML page they serve (the file on disk is untouched) and the viewer listens for the message.
 */
import { LINK_SCRIPT } from './frameLinks.js';

export const LOCATION_MESSAGE = 'harvest:location';

export const LOCATION_SCRIPT = `parent.postMessage({type:'${LOCATION_MESSAGE}',href:location.href},'*')`;

/** What the archive servers insert: the location report and, in the same tag, the link watcher (frameLinks.ts). */
export const FRAME_SCRIPT = `${LOCATION_SCRIPT};${LINK_SCRIPT}`;

const TAG = new TextEncoder().encode(`<script>${FRAME_SCRIPT}</script>`);

const HEAD_OPEN = /<head(?:\s[^>]*)?>/i;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/**
 * The page with the location script inserted right after `<head>`; with no head, after the doctype
 * (a script before it would switch the page to quirks mode), else at the start (after a BOM).
 */
export function withLocationScript(html: Uint8Array): Uint8Array {
  const start = html[0] === 0xef && html[1] === 0xbb && html[2] === 0xbf ? 3 : 0;
  // windows-1252 maps each byte to one UTF-16 unit, so string offsets are byte offsets in any
  // ASCII-compatible charset the page may be in.
  const text = new TextDecoder('windows-1252').decode(html.subarray(start));
  const head = HEAD_OPEN.exec(text);
  const doctype = DOCTYPE.exec(text);
  const at = start + (head ? head.index + head[0].length : doctype ? doctype[0].length : 0);
  const out = new Uint8Array(html.length + TAG.length);
  out.set(html.subarray(0, at));
  out.set(TAG, at);
  out.set(html.subarray(at), at + TAG.length);
  return out;
}
