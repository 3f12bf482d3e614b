import type { Statement } from 'better-sqlite3';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';
import type { PackedText } from '../store/packedText.js';
import type { TextIndex, TextKind } from '../store/textIndex.js';
import type { DocumentPool } from './documentPool.js';

/** What the search index gets of the documents a capture saves, filed under that capture. */
export class TextFeed {
  /** Files whose text is being read (PDFs take a while): the crawl goes on meanwhile, and waits for them when it stops. */
  private readonly readingText = new Set<Promise<void>>();
  private fetchedAt: Statement | null = null;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly index: TextIndex,
    private readonly documents: DocumentPool,
  ) {}

  /** Resolves once the text of every saved file has been read and queued for the index. */
  async textRead(): Promise<void> {
    while (this.readingText.size > 0) await Promise.allSettled([...this.readingText]);
  }

  /** Queues a saved document's text for the index, dated as its outcome in the catalogue. */
  add(row: QueuedRow, kind: TextKind, text: PackedText): void {
    this.fetchedAt ??= this.catalogue.sqlite.prepare('SELECT fetched_at FROM urls WHERE id = ?').pluck();
    const fetchedAt = this.fetchedAt.get(row.id) as string | null;
    this.index.add({ urlId: row.id, url: row.url, capture: this.catalogue.currentCapture(), kind, fetchedAt, text });
  }

  /** Reads a saved file's text in a document worker; one that can't be read is left out of the index. */
  readText(row: QueuedRow, kind: TextKind & ('pdf' | 'text'), res: FetchResponse): void {
    const reading = this.documents
      .fileText(kind, res.body, res.contentType)
      .then((text) => {
        if (text !== null) this.add(row, kind, text);
      })
      .catch(() => {})
      .finally(() => this.readingText.delete(reading));
    this.readingText.add(reading);
  }
}
