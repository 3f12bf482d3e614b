import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { THUMBNAILS_DIR } from '../store/archiveFolder.js';
import { thumbnailPathFor, writeArchiveFile } from '../store/thumbnails.js';
import { resolveInside } from '../url/localPath.js';
import type { RecordedRequest } from './recordingBroker.js';

/**
 * What a rendered crawl (`--render`) keeps of each page it rendered, for the analysis to use as the
 * reference instead of rendering the live page again: the visible text and the requests the page
 * made, beside its thumbnail (the first screenful, already kept) as
 * `thumbnails/<mirror path>.render.json`. The same text and requests go into the WARC as resource
 * records (`urn:textFinal:<url>`, `urn:pageinfo:<url>`, the names Browsertrix gives them), so the
 * archive's own files carry them too. Bounded: the text is cut at MAX_TEXT_CHARS, the requests at
 * MAX_REQUESTS.
 */
export interface RenderSeen {
  url: string;
  text: string;
  /** SHA-256 of the thumbnail the render wrote: a thumbnail made since (of the offline copy) is not the render's. */
  thumbnailSha256: string;
  requests: RecordedRequest[];
}

export interface CrawlRenderRecord extends RenderSeen {
  /** The capture whose crawl rendered the page: an analysis of another capture renders the live page. */
  capture: number;
}

export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_REQUESTS = 2_000;

export function crawlRenderPath(localPath: string): string {
  return `${THUMBNAILS_DIR}/${localPath}.render.json`;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What one rendered page showed and asked for, bounded as above. */
export function renderSeen(url: string, text: string, thumbnail: Buffer, requests: readonly RecordedRequest[]): RenderSeen {
  return { url, text: text.slice(0, MAX_TEXT_CHARS), thumbnailSha256: sha256(thumbnail), requests: requests.slice(0, MAX_REQUESTS) };
}

export async function writeCrawlRender(archiveDir: string, localPath: string, capture: number, seen: RenderSeen): Promise<void> {
  const record: CrawlRenderRecord = { capture, ...seen };
  await writeArchiveFile(archiveDir, crawlRenderPath(localPath), Buffer.from(JSON.stringify(record), 'utf8'));
}

export const TEXT_FINAL = 'urn:textFinal:';
export const PAGEINFO = 'urn:pageinfo:';

/** The WARC resource records that carry a render's text and requests, under the names Browsertrix gives them. */
export function renderResources(seen: RenderSeen): { uri: string; contentType: string; payload: Buffer }[] {
  const urls = Object.fromEntries(seen.requests.map((r) => [r.url, { type: r.type, ok: r.ok }]));
  return [
    { uri: TEXT_FINAL + seen.url, contentType: 'text/plain; charset=utf-8', payload: Buffer.from(seen.text, 'utf8') },
    { uri: PAGEINFO + seen.url, contentType: 'application/json', payload: Buffer.from(JSON.stringify({ url: seen.url, urls }), 'utf8') },
  ];
}

/**
 * The requests a `urn:pageinfo:` record lists: Harvest's (`ok`) or Browsertrix's (an HTTP `status`
 * instead, below 400 counting as loaded); null for a body that is not such a record.
 */
export function pageinfoRequests(body: Buffer): RecordedRequest[] | null {
  let info: unknown;
  try {
    info = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const urls = typeof info === 'object' && info !== null ? (info as { urls?: unknown }).urls : undefined;
  if (typeof urls !== 'object' || urls === null) return null;
  const requests: RecordedRequest[] = [];
  for (const [url, v] of Object.entries(urls as Record<string, unknown>)) {
    const entry = (typeof v === 'object' && v !== null ? v : {}) as { type?: unknown; ok?: unknown; status?: unknown };
    const ok = typeof entry.ok === 'boolean' ? entry.ok : typeof entry.status === 'number' && entry.status > 0 && entry.status < 400;
    requests.push({ url, type: typeof entry.type === 'string' ? entry.type : 'other', ok });
    if (requests.length === MAX_REQUESTS) break;
  }
  return requests;
}

/** The pages' references: a page's crawl-time render in `capture`, with its thumbnail, or null where there is none. */
export function readCrawlRender(archiveDir: string, localPath: string, capture: number): { record: CrawlRenderRecord; thumbnail: Buffer } | null {
  try {
    const file = resolveInside(archiveDir, crawlRenderPath(localPath));
    const picture = resolveInside(archiveDir, thumbnailPathFor(localPath));
    if (!existsSync(file) || !existsSync(picture)) return null;
    const record = JSON.parse(readFileSync(file, 'utf8')) as CrawlRenderRecord;
    const thumbnail = readFileSync(picture);
    if (record.capture !== capture || record.thumbnailSha256 !== sha256(thumbnail)) return null;
    return { record, thumbnail };
  } catch {
    // A record that cannot be read is no reference: the live page is rendered instead.
    return null;
  }
}
