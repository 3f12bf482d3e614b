/**
 * What a replayed page of a documentation folder should show, read from its HTML file: its title and
 * a paragraph of its own text; and the edits the measurement makes between captures (a paragraph
 * rewritten, a page removed).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as cheerio from 'cheerio';
import { decodeBuffer } from 'encoding-sniffer';

/** A run of plain text at the start of a paragraph: long enough to be the page's own words. */
const PARAGRAPH = /<p(?:\s[^>]*)?>([^<]{40,})</;

const normal = (s) => s.replace(/\s+/g, ' ').trim();

/** The file a URL of the folder served at `origin` comes from (a folder's index.html). */
export function fileOf(root, url) {
  const p = decodeURIComponent(new URL(url).pathname);
  return path.join(root, ...(p.endsWith('/') ? p + 'index.html' : p).split('/').filter(Boolean));
}

/** The file's HTML, decoded by its own charset (the Apache manual has EUC-KR, Shift_JIS, KOI8-R pages). */
const htmlOf = (file) => decodeBuffer(readFileSync(file));

/** Whether the file sends the browser on at once (a meta refresh): a replay shows its target, not it. */
export function sendsOn(file) {
  return existsSync(file) && /<meta\s[^>]*http-equiv=["']?refresh["']?[^>]*content=["']?\s*0\s*[;,]/i.test(htmlOf(file));
}

/** `{ title, words }` a replay of the file must show (`words` null when it has no plain paragraph). */
export function expectedOf(file) {
  const html = htmlOf(file);
  const $ = cheerio.load(html);
  const m = PARAGRAPH.exec(html);
  return { title: normal($('title').first().text()), words: m ? normal(cheerio.load(`<p>${m[1]}</p>`)('p').text()) : null };
}

/**
 * Picks `changed` pages (with a plain paragraph) and `removed` pages among `urls`, spread over the
 * list and never a seed, and edits the copy of the folder at `root`: the paragraph rewritten with
 * words of its own, the removed files deleted. Returns the URLs with the words each change put in.
 */
export function editPages(root, urls, seeds, { changed = 3, removed = 2 } = {}) {
  const candidates = urls.filter((u) => !seeds.includes(u) && existsSync(fileOf(root, u)) && PARAGRAPH.test(readFileSync(fileOf(root, u), 'utf8')));
  const pick = (n, offset) => Array.from({ length: n }, (_, i) => candidates[Math.floor(((i + offset) * candidates.length) / (changed + removed + 1))]);
  const edits = { changed: [], removed: [] };
  for (const [i, url] of pick(changed, 1).entries()) {
    const file = fileOf(root, url);
    const words = `Revised for the second capture, page ${i + 1}: this paragraph was rewritten between the crawls.`;
    writeFileSync(file, readFileSync(file, 'utf8').replace(PARAGRAPH, (all, text) => all.replace(text, words)));
    edits.changed.push({ url, words });
  }
  for (const url of pick(removed, changed + 1)) {
    rmSync(fileOf(root, url));
    edits.removed.push({ url });
  }
  return edits;
}
