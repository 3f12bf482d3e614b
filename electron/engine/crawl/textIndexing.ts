import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { rmSync } from 'node:fs';
import { FetchError } from '../fetch/errors.js';
import { textFileKind } from '../parse/fileText.js';
import type { PackedText } from '../store/packedText.js';
import type { Archive } from '../store/archive.js';
import { FIRST_CAPTURE, replaceTextIndex, TextIndex, type TextKind } from '../store/textIndex.js';
import { WarcError } from '../warc/errors.js';
import { documentKind, unpackOriginal } from './documents.js';
import type { DocumentPool } from './documentPool.js';
import { readOriginal } from './finalize.js';

/**
 * Building the search index from what an archive already holds, without fetching anything: each
 * saved page's original bytes from its WARC record (or the catalogue), PDFs and text files from the
 * mirror, where they are saved as fetched. `harvest reindex` builds a whole new index this way; a
 * crawl uses it when it finishes, for the documents a kill kept out of the index.
 */

/** What the search index takes from a response: HTML pages, PDFs and plain-text files. */
export function textKindOf(contentType: string | null, url: string): TextKind | null {
  if (documentKind(contentType, url) === 'html') return 'html';
  return textFileKind(contentType, url);
}

interface IndexableRow {
  id: number;
  url: string;
  content_type: string | null;
  local_path: string;
  fetched_at: string | null;
}

/** Documents being read at once: enough to keep every document worker busy. */
const AT_ONCE = 8;

/**
 * Catalogue rows compared with the index at once. All at once, a 100,000-page crawl's end held
 * some 100 MB of rows and ids for the moment it took (the main thread's heap 29 -> 146 MB live).
 */
const PAGE_ROWS = 2_000;

export type IndexProgress = (done: number, total: number) => void;

/** Archived responses that may have text (a cheap filter; textKindOf decides). */
const CANDIDATE = `state = 'archived' AND local_path IS NOT NULL
  AND (content_type IS NULL OR content_type LIKE 'text/%' OR content_type LIKE 'application/xhtml+xml%'
       OR content_type LIKE 'application/pdf%' OR content_type LIKE 'application/octet-stream%')`;

function candidateCount(archive: Archive): number {
  return archive.catalogue.sqlite.prepare(`SELECT COUNT(*) FROM urls WHERE ${CANDIDATE}`).pluck().get() as number;
}

/** The next candidates after `afterId`, in id order. */
function candidatesAfter(archive: Archive, afterId: number, limit: number): IndexableRow[] {
  return archive.catalogue.sqlite
    .prepare(`SELECT id, url, content_type, local_path, fetched_at FROM urls WHERE id > ? AND ${CANDIDATE} ORDER BY id LIMIT ?`)
    .all(afterId, limit) as IndexableRow[];
}

/** A document's text, or null when it has none or its bytes can't be read back (noted in its URL's log). */
async function textOf(archive: Archive, pool: DocumentPool, row: IndexableRow, kind: TextKind): Promise<PackedText | null> {
  const c = archive.catalogue;
  if (kind !== 'html') {
    const data = await readFile(archive.mirror.absolutePath(row.local_path)).catch(() => null);
    return data === null ? null : pool.fileText(kind, data, row.content_type);
  }
  const original = c.getOriginal(row.id);
  let body: Buffer;
  try {
    if (original === undefined) body = await readFile(archive.mirror.absolutePath(row.local_path));
    else body = 'packed' in original ? unpackOriginal(original.packed) : await readOriginal(archive, original.record, original.contentEncoding);
  } catch (e) {
    if (e instanceof FetchError || (e instanceof WarcError && e.code === 'damaged') || (e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const doc = await pool.prepare({ kind: 'html', body, url: row.url, contentType: row.content_type, packOriginal: false, text: 'reply' });
  pool.discard(doc);
  return doc.text;
}

/**
 * Adds to `index` every archived document of capture 1 that it lacks. Returns how many were added.
 * The catalogue is compared with the index a page of rows at a time; documents are read a few at
 * a time, and the event loop gets a turn between batches. Progress counts the candidates checked;
 * their total is counted only for a caller that asks (a full scan: 0.1 s of the crawl's thread at
 * 100,000 pages with the catalogue in the OS's cache, seconds without).
 */
export async function indexMissing(
  archive: Archive,
  index: TextIndex,
  pool: DocumentPool,
  onProgress?: IndexProgress,
  signal?: AbortSignal,
  pageRows = PAGE_ROWS,
): Promise<number> {
  const total = onProgress ? candidateCount(archive) : 0;
  let done = 0;
  let added = 0;
  onProgress?.(0, total);
  for (let page = candidatesAfter(archive, 0, pageRows); page.length > 0; page = candidatesAfter(archive, page.at(-1)!.id, pageRows)) {
    const indexed = index.indexedUrlIds(FIRST_CAPTURE, page[0]!.id, page.at(-1)!.id);
    let batch: IndexableRow[] = [];
    for (let k = 0; k < page.length; k++) {
      const row = page[k]!;
      if (!indexed.has(row.id) && textKindOf(row.content_type, row.url) !== null) batch.push(row);
      if (batch.length < AT_ONCE && k < page.length - 1) continue;
      signal?.throwIfAborted();
      if (batch.length > 0) added += await indexBatch(archive, index, pool, batch);
      batch = [];
      onProgress?.(done + k + 1, total);
      await nextTurn();
    }
    done += page.length;
  }
  index.flush();
  return added;
}

async function indexBatch(archive: Archive, index: TextIndex, pool: DocumentPool, batch: IndexableRow[]): Promise<number> {
  const texts = await Promise.all(batch.map((r) => textOf(archive, pool, r, textKindOf(r.content_type, r.url)!)));
  let added = 0;
  batch.forEach((r, k) => {
    const text = texts[k];
    if (text == null) return;
    index.add({ urlId: r.id, url: r.url, capture: FIRST_CAPTURE, kind: textKindOf(r.content_type, r.url)!, fetchedAt: r.fetched_at, text });
    added++;
  });
  return added;
}

/**
 * Builds a new index for the whole archive beside the old one and puts it in its place when
 * complete: an interrupted rebuild leaves the old index as it was.
 */
export async function rebuildTextIndex(
  archive: Archive,
  pool: DocumentPool,
  onProgress: IndexProgress = () => {},
  signal?: AbortSignal,
): Promise<{ documents: number }> {
  const building = `${TextIndex.fileIn(archive.dir)}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  const index = TextIndex.openWritable(building);
  let documents: number;
  try {
    documents = await indexMissing(archive, index, pool, onProgress, signal);
    index.close({ optimize: true });
  } catch (e) {
    index.close();
    for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
    throw e;
  }
  replaceTextIndex(building, archive.dir);
  return { documents };
}
