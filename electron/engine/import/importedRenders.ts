import { PAGEINFO, pageinfoRequests, renderSeen, TEXT_FINAL, writeCrawlRender } from '../render/crawlRender.js';
import type { RecordedRequest } from '../render/recordingBroker.js';
import { thumbnailPathFor, writeArchiveFile } from '../store/thumbnails.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';

const THUMBNAIL = 'urn:thumbnail:';
/** Pages whose other pieces are awaited at once: a crawler writes a page's pieces one after another, so a few suffice. */
const PAGES_PENDING = 256;

interface Pieces {
  thumbnail?: Buffer;
  text?: string;
  requests?: RecordedRequest[];
}

/**
 * The renders of a rendered crawl, in the records an import reads: a page's thumbnail
 * (`urn:thumbnail:`), visible text (`urn:textFinal:`) and requests (`urn:pageinfo:`), as Harvest's
 * `--render` crawls and cluster workers write them. The thumbnail is kept where a rendered crawl keeps
 * it; a page with all three gets its crawl render in the import's capture, so that `harvest qa`
 * compares its copies with what the crawl's browser showed rather than with the live page. Pieces
 * still awaited when an import is killed are lost with it: those pages are compared with the live
 * page, as pages of a static crawl are.
 */
export class ImportedRenders {
  private readonly pending = new Map<string, Pieces>();

  constructor(private readonly archiveDir: string) {}

  /** Takes a resource record of the import's `capture`; false for a record that is none of the three. */
  async take(uri: string, payload: Buffer, capture: number): Promise<boolean> {
    const piece = pieceOf(uri);
    const url = piece === null ? null : canonicalize(piece.url);
    if (piece === null || url === null) return false;
    const localPath = localPathFor(url, 'text/html');
    const pieces = this.pending.get(url) ?? {};
    if (piece.kind === 'thumbnail') pieces.thumbnail = payload;
    else if (piece.kind === 'text') pieces.text = payload.toString('utf8');
    else {
      const requests = pageinfoRequests(payload);
      if (requests === null) return false;
      pieces.requests = requests;
    }
    const { thumbnail, text, requests } = pieces;
    if (thumbnail !== undefined && text !== undefined && requests !== undefined) this.pending.delete(url);
    else {
      this.pending.delete(url);
      this.pending.set(url, pieces);
      if (this.pending.size > PAGES_PENDING) this.pending.delete(this.pending.keys().next().value!);
    }
    if (piece.kind === 'thumbnail') await writeArchiveFile(this.archiveDir, thumbnailPathFor(localPath), payload);
    if (thumbnail !== undefined && text !== undefined && requests !== undefined) await writeCrawlRender(this.archiveDir, localPath, capture, renderSeen(url, text, thumbnail, requests));
    return true;
  }
}

function pieceOf(uri: string): { kind: 'thumbnail' | 'text' | 'requests'; url: string } | null {
  if (uri.startsWith(THUMBNAIL)) return { kind: 'thumbnail', url: uri.slice(THUMBNAIL.length) };
  if (uri.startsWith(TEXT_FINAL)) return { kind: 'text', url: uri.slice(TEXT_FINAL.length) };
  if (uri.startsWith(PAGEINFO)) return { kind: 'requests', url: uri.slice(PAGEINFO.length) };
  return null;
}
