import type { FetchResponse } from '../fetch/fetcher.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';
import type { TextKind, TextPlace } from '../store/textIndex.js';
import type { DocumentPool } from './documentPool.js';

/**
 * What the search index gets of the documents a capture saves, filed under that capture. The
 * document workers file the texts themselves (textWriter.ts): this says where.
 */
export class TextFeed {
  /** Files whose text is being read (PDFs take a while): the crawl goes on meanwhile, and waits for them when it stops. */
  private readonly readingText = new Set<Promise<void>>();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly documents: DocumentPool,
  ) {}

  /**
   * Resolves once the text of every saved file has been read and committed, and the workers' own
   * connections to the index are closed (the crawl's thread then has the index to itself).
   */
  async textRead(): Promise<void> {
    while (this.readingText.size > 0) await Promise.allSettled([...this.readingText]);
    await this.documents.flushText(true);
  }

  /** Where a saved document is filed: under its URL and the current capture, dated as its WARC record. */
  place<K extends TextKind>(row: QueuedRow, kind: K, fetchedAt: string): TextPlace & { kind: K; fetchedAt: string } {
    return { urlId: row.id, url: row.url, capture: this.catalogue.currentCapture(), kind, fetchedAt };
  }

  /** Reads a saved file's text in a document worker, which files it; one that can't be read is left out of the index. */
  readText(place: TextPlace & { kind: 'pdf' | 'text' }, res: FetchResponse): void {
    const reading = this.documents
      .fileText(place.kind, res.body, res.contentType, place)
      .then(() => {})
      .catch(() => {})
      .finally(() => this.readingText.delete(reading));
    this.readingText.add(reading);
  }
}
