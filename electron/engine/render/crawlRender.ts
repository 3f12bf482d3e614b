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
export interface CrawlRenderRecord {
  /** The capture whose crawl rendered the page: an analysis of another capture renders the live page. */
  capture: number;
  url: string;
  text: string;
  /** SHA-256 of the thumbnail the render wrote: a thumbnail made since (of the offline copy) is not the render's. */
  thumbnailSha256: string;
  requests: RecordedRequest[];
}

export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_REQUESTS = 2_000;

export function crawlRenderPath(localPath: string): string {
  return `${THUMBNAILS_DIR}/${localPath}.render.json`;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The record of one rendered page, bounded as above. */
export function crawlRenderRecord(capture: number, url: string, text: string, thumbnail: Buffer, requests: readonly RecordedRequest[]): CrawlRenderRecord {
  return { capture, url, text: text.slice(0, MAX_TEXT_CHARS), thumbnailSha256: sha256(thumbnail), requests: requests.slice(0, MAX_REQUESTS) };
}

export async function writeCrawlRender(archiveDir: string, localPath: string, record: CrawlRenderRecord): Promise<void> {
  await writeArchiveFile(archiveDir, crawlRenderPath(localPath), Buffer.from(JSON.stringify(record), 'utf8'));
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
