import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { rmSync } from 'node:fs';
import { FetchError } from '../fetch/errors.js';
import { textFileKind } from '../parse/fileText.js';
import { DEFAULT_PARSE_CAPS } from '../parse/html.js';
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

export interface IndexableRow {
  id: number;
  url: string;
  content_type: string | null;
  local_path: string;
  fetched_at: string | null;
  /** The body's size, decoded; null when not recorded. */
  bytes: number | null;
}

/** Whether the row's document can give text: a page over the parser's limit is saved unparsed and has none. */
function mayHaveText(row: IndexableRow): boolean {
  const kind = textKindOf(row.content_type, row.url);
  return kind !== null && !(kind === 'html' && row.bytes !== null && row.bytes > DEFAULT_PARSE_CAPS.maxParseBytes);
}

/** Documents being read at once: enough to keep every document worker busy. */
const AT_ONCE = 8;
/**
 * Bytes of documents read at once: each is held decoded, and copied to a worker, until its text
 * is read. At the end of a crawl that met twenty 50 MB gzip bombs, eight at once held 400 MB.
 */
const AT_ONCE_BYTES = 16 * 1024 * 1024;

/**
 * The rows of `page` to read, in batches of at most `rows` documents and `bytes` of them (a batch
 * takes its first row whatever its size), each with the position in `page` of the last row it
 * covers; a page's last batch may be empty.
 */
export function* readBatches(
  page: readonly IndexableRow[],
  wanted: (row: IndexableRow) => boolean,
  limits = { rows: AT_ONCE, bytes: AT_ONCE_BYTES },
): Generator<{ rows: IndexableRow[]; through: number }> {
  let rows: IndexableRow[] = [];
  let bytes = 0;
  for (let k = 0; k < page.length; k++) {
    const row = page[k]!;
    if (!wanted(row)) continue;
    if (rows.length > 0 && (rows.length >= limits.rows || bytes + (row.bytes ?? 0) > limits.bytes)) {
      yield { rows, through: k - 1 };
      rows = [];
      bytes = 0;
    }
    rows.push(row);
    bytes += row.bytes ?? 0;
  }
  yield { rows, through: page.length - 1 };
}

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
    .prepare(`SELECT id, url, content_type, local_path, fetched_at, bytes FROM urls WHERE id > ? AND ${CANDIDATE} ORDER BY id LIMIT ?`)
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
    const wanted = (row: IndexableRow) => !indexed.has(row.id) && mayHaveText(row);
    for (const { rows, through } of readBatches(page, wanted)) {
      signal?.throwIfAborted();
      if (rows.length > 0) added += await indexBatch(archive, index, pool, rows);
      onProgress?.(done + through + 1, total);
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
