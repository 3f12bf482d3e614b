import { existsSync, renameSync, rmSync } from 'node:fs';
import { TEXT_INDEX_FILE } from './archiveFolder.js';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { PackedText } from './packedText.js';
import { withoutWordBreaks } from '../parse/wordBreaks.js';
import { hasPrefix, isOnePhrase, QuerySyntaxError, toFtsQuery } from './searchQuery.js';

export { packText, type PackedText } from './packedText.js';

/**
 * The archive's full-text index: an SQLite FTS5 table of each saved page's (and PDF's, and text
 * file's) visible text, in its own file beside the catalogue. Its own file, so that it can be
 * rebuilt whole (`harvest reindex` writes a new one and renames it over) and measured, and so that
 * its writes stay out of the catalogue's log, which the crawl checkpoints on a tight schedule; and
 * readable while a crawl writes it (WAL), so searches never wait for the crawl.
 *
 * Tokenizer: unicode61 with remove_diacritics 2 (café = cafe, stemming-free; `term*` for prefixes).
 * Chinese, Japanese and Thai text arrives with its words marked by wordBreaks.ts.
 */

export type TextKind = 'html' | 'pdf' | 'text';
export const TEXT_KINDS: readonly TextKind[] = ['html', 'pdf', 'text'];

/** Until an archive holds several captures, every row belongs to capture 1. */
export const FIRST_CAPTURE = 1;

/** Where a document's text is filed: everything of a TextEntry but the text. */
export type TextPlace = Omit<TextEntry, 'text'>;

export interface TextEntry {
  urlId: number;
  url: string;
  capture: number;
  kind: TextKind;
  /** ISO 8601: when the capture was fetched. */
  fetchedAt: string | null;
  text: PackedText;
}

export interface SearchOptions {
  limit: number;
  offset?: number;
  kind?: TextKind;
  capture?: number;
  /** The most matching texts ranked (RANK_MAX unless a test asks for fewer). */
  rankMax?: number;
}

/**
 * Matching texts ranked by BM25 at most. bm25() reads each ranked row's positions and size; past
 * this many matches the newest RANK_MAX texts (highest ids: the latest indexed) are ranked and the
 * result says so. On 100,000 synthetic pages, ranking 2,000 rather than 10,000 takes the costliest
 * query of the bench mix (a phrase of two words found on every page) from 58 to 38 ms of CPU.
 */
export const RANK_MAX = 2_000;

/** Snippet marks: control characters that extracted text never holds (see pageText.ts). */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

export interface SearchHit {
  /** The first URL (of the latest capture) with this text; `sameText` more have it too. */
  url: string;
  title: string | null;
  capture: number;
  kind: TextKind;
  fetchedAt: string | null;
  /** Text around the best match, matched words between MARK_START and MARK_END. */
  snippet: string;
  /** BM25 relevance, higher is better. */
  score: number;
  urlId: number;
  /** Other URLs (or captures) whose text is the same. */
  sameText: number;
}

export interface SearchResult {
  /** Distinct matching texts (exact). */
  total: number;
  /** How many of them were ranked: all (= total), or the newest RANK_MAX when more match. */
  ranked: number;
  hits: SearchHit[];
}

/**
 * Texts are stored once per digest, their bodies compressed (the plain text of a text-heavy site is
 * as large as its gzipped WARC records), and the FTS5 table indexes them as an external-content
 * table whose content is a view that decompresses on demand (snippets, WACZ text). Each URL of each
 * capture points to its text.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS text_store (
  id INTEGER PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  headings TEXT NOT NULL,
  body_z BLOB NOT NULL
);
CREATE VIEW IF NOT EXISTS text_content AS
  SELECT id, title, headings, harvest_inflate(body_z) AS body FROM text_store;
CREATE VIRTUAL TABLE IF NOT EXISTS text_fts USING fts5(
  title, headings, body,
  content = 'text_content', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS text_docs (
  id INTEGER PRIMARY KEY,
  capture INTEGER NOT NULL,
  url_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  fetched_at TEXT,
  text_id INTEGER NOT NULL,
  UNIQUE (capture, url_id)
);
CREATE INDEX IF NOT EXISTS text_docs_text ON text_docs (text_id);
CREATE INDEX IF NOT EXISTS text_docs_url ON text_docs (url);
`;

/** BM25 weights of title, headings and body: a word in the title says more about a page than one in passing. */
const WEIGHTS = [8, 3, 1];
/** bm25() with the weights times `scale` (doubled, it gives a phrase's match count back: matchesFromBm25). */
const bm25 = (scale: number): string => `bm25(text_fts, ${WEIGHTS.map((w) => (w * scale).toFixed(1)).join(', ')})`;
const RANK = bm25(1);
/** Words of context in a snippet. */
const SNIPPET_WORDS = 24;

/** Rows buffered before the crawl's writer commits them (it also commits on every progress tick). */
const BATCH_ROWS = 256;

/**
 * How many texts a one-phrase query matches, read back from one matching row's bm25() scores with
 * the weights and with them doubled; null when they don't give it exactly (the caller counts).
 *
 * bm25() counts the phrase's matches itself, for its IDF, by scanning the phrase's whole list; a
 * COUNT(*) would scan it again, and a phrase's scan reads both words' positions in every text that
 * has both (two words found on every one of 100,000 pages: 17 ms of CPU). SQLite scores a row
 * -idf·f·(k1+1)/(f+K), f the row's weighted phrase frequency, K its length term, k1 = 1.2, and
 * idf = ln((N-n+0.5)/(n+0.5)) for n matches among N texts. Doubled weights double f alone, so
 * 2/-doubled - 1/-score = 1/(idf·(k1+1)), whatever f and K: hence idf, and n. bm25 raises an idf
 * of 0 or less (a phrase in half the texts or more) to 1e-6, which says nothing of n: so n is kept
 * only if it gives that idf back to within rounding, and the idf is above 1e-6.
 */
export function matchesFromBm25(score: number, doubled: number, texts: number): number | null {
  const idf = 1 / (2.2 * (2 / -doubled - 1 / -score));
  const r = Math.exp(idf);
  const n = Math.round((texts + 0.5 - 0.5 * r) / (r + 1));
  const idfOfN = Math.log((texts - n + 0.5) / (n + 0.5));
  return n >= 1 && idfOfN > 1e-6 && Math.abs(idfOfN - idf) <= 1e-9 * idfOfN ? n : null;
}

/** Thrown for a search that can't run: bad syntax, or no index yet. */
export class SearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchError';
  }
}

function withInflate(db: Database.Database): Database.Database {
  db.function('harvest_inflate', { deterministic: true }, (z: unknown) => (Buffer.isBuffer(z) ? brotliDecompressSync(z).toString('utf8') : null));
  return db;
}

export class TextIndex {
  private pending: TextEntry[] = [];

  private constructor(private readonly db: Database.Database, readonly readonly: boolean) {}

  static fileIn(archiveDir: string): string {
    return path.join(archiveDir, TEXT_INDEX_FILE);
  }

  static exists(archiveDir: string): boolean {
    return existsSync(TextIndex.fileIn(archiveDir));
  }

  /** Opens (creating if needed) the index for writing; the file may be another name (reindex builds beside it). */
  static openWritable(file: string): TextIndex {
    const db = withInflate(new Database(file, { timeout: 5_000 }));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // SQLite's own default page cache (2 MB) rather than the better-sqlite3 build's 16 MB: a writer
    // appends, and a crawl has one per document worker and one on its own thread, each filled once
    // the index outgrows it (859 MB at 100,000 pages). Peak RSS on the 10,000-page bench site
    // 310.0/305.7/307.6 -> 294.4/298.2/288.6 MB, CPU within the noise (126-152 s against 131-145 s).
    db.pragma('cache_size = -2000');
    db.exec(SCHEMA);
    return new TextIndex(db, false);
  }

  /** Opens an archive's index for searching; null when it has none. */
  static openReadonly(archiveDir: string): TextIndex | null {
    const file = TextIndex.fileIn(archiveDir);
    if (!existsSync(file)) return null;
    return new TextIndex(withInflate(new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 })), true);
  }

  /** Queues a document's text; committed with the next flush (every BATCH_ROWS rows, or by the caller). */
  add(entry: TextEntry): void {
    this.pending.push(entry);
    if (this.pending.length >= BATCH_ROWS) this.flush();
  }

  /** Commits the queued rows in one transaction: FTS5 writes one segment per transaction, so fewer is smaller and faster. */
  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    const known = this.db.prepare('SELECT id FROM text_store WHERE digest = ?').pluck();
    const store = this.db.prepare('INSERT INTO text_store (digest, title, headings, body_z) VALUES (?, ?, ?, ?)');
    const index = this.db.prepare('INSERT INTO text_fts (rowid, title, headings, body) VALUES (?, ?, ?, ?)');
    // A URL fetched again (after a kill, before its outcome committed) points to its new text.
    const point = this.db.prepare(
      `INSERT INTO text_docs (capture, url_id, url, kind, fetched_at, text_id) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (capture, url_id) DO UPDATE SET url = excluded.url, kind = excluded.kind, fetched_at = excluded.fetched_at, text_id = excluded.text_id`,
    );
    this.db.transaction(() => {
      for (const r of rows) {
        const t = r.text;
        let textId = known.get(t.digest) as number | undefined;
        if (textId === undefined) {
          textId = Number(store.run(t.digest, t.title, t.headings, Buffer.from(t.bodyZ.buffer, t.bodyZ.byteOffset, t.bodyZ.byteLength)).lastInsertRowid);
          index.run(textId, t.title, t.headings, t.body);
        }
        point.run(r.capture, r.urlId, r.url, r.kind, r.fetchedAt, textId);
      }
      // IMMEDIATE: with several writers (a crawl's document workers), a transaction that read first
      // could not take the write lock once another had committed; this one waits its turn.
    }).immediate();
  }

  /** The URL ids from `fromId` to `toId` a capture has text for (to find what an interrupted crawl did not index). */
  indexedUrlIds(capture: number, fromId: number, toId: number): Set<number> {
    return new Set(
      this.db.prepare('SELECT url_id FROM text_docs WHERE capture = ? AND url_id BETWEEN ? AND ?').pluck().all(capture, fromId, toId) as number[],
    );
  }

  /** URLs in the index (every capture), and distinct texts. */
  counts(): { urls: number; texts: number } {
    return {
      urls: this.db.prepare('SELECT COUNT(*) FROM text_docs').pluck().get() as number,
      texts: this.db.prepare('SELECT COUNT(*) FROM text_store').pluck().get() as number,
    };
  }

  /**
   * A page's text as a reader sees it (for WACZ page lists) as of a capture: the latest indexed in it
   * or before (a re-crawl indexes only what it saves); null when it has none.
   */
  textOf(url: string, capture = FIRST_CAPTURE): string | null {
    const body = this.db
      .prepare(
        'SELECT harvest_inflate(s.body_z) FROM text_docs d JOIN text_store s ON s.id = d.text_id WHERE d.url = ? AND d.capture <= ? ORDER BY d.capture DESC LIMIT 1',
      )
      .pluck()
      .get(url, capture) as string | undefined;
    return body === undefined ? null : withoutWordBreaks(body);
  }

  /** BM25-ranked hits, best first, one per distinct text, and how many texts match in all and were ranked. */
  search(query: string, opts: SearchOptions): SearchResult {
    let match: string;
    try {
      match = toFtsQuery(query);
    } catch (e) {
      if (e instanceof QuerySyntaxError) throw new SearchError(e.message);
      throw e;
    }
    const docFilter: string[] = [];
    const docParams: (string | number)[] = [];
    if (opts.kind !== undefined) {
      docFilter.push('kind = ?');
      docParams.push(opts.kind);
    }
    if (opts.capture !== undefined) {
      docFilter.push('capture = ?');
      docParams.push(opts.capture);
    }
    const docWhere = docFilter.length > 0 ? ` AND ${docFilter.join(' AND ')}` : '';
    // +rowid: a plain rowid IN goes to FTS5 as a constraint, which then runs the whole query once
    // per listed id (--type html over 100,000 pages: 4.7 s); unary + makes it a filter on the matches.
    const restrict = docFilter.length > 0 ? ` AND +rowid IN (SELECT text_id FROM text_docs WHERE ${docFilter.join(' AND ')})` : '';
    const rankMax = opts.rankMax ?? RANK_MAX;
    // bm25's own count of a phrase's matches is the total only when no filter leaves some out.
    const readBack = docFilter.length === 0 && isOnePhrase(match);
    try {
      const where = `text_fts MATCH ?${restrict}`;
      // One pass ranks the newest rankMax matches (FTS5 walks its lists by rowid, newest first here)
      // and counts them: bm25() scans each phrase's whole list once per query, so a second ranking
      // pass would cost another. Snippets and titles come after, for the page of hits only: any
      // column of the FTS table read here would decompress every ranked body.
      // For a phrase, also what matchesFromBm25 needs: the doubled-weight score, and bm25's N (the
      // FTS table's rows, one per text in docsize), read in this statement to see what bm25 saw.
      const readBackColumns = readBack ? `, ${bm25(2)} AS doubled, (SELECT COUNT(*) FROM text_fts_docsize) AS texts` : '';
      const ranked = this.db
        .prepare(
          `SELECT *, COUNT(*) OVER () AS n
           FROM (SELECT rowid AS id, ${RANK} AS rank${readBackColumns} FROM text_fts WHERE ${where} ORDER BY rowid DESC LIMIT ?)
           ORDER BY rank LIMIT ? OFFSET ?`,
        )
        .all(match, ...docParams, rankMax, opts.limit, opts.offset ?? 0) as { id: number; rank: number; doubled?: number; texts?: number; n: number }[];
      const first = ranked[0];
      // Fewer than rankMax ranked means all were; otherwise (or past the last page) a phrase's
      // matches as bm25 counted them, else a count of them all.
      let total = first !== undefined && first.n < rankMax ? first.n : null;
      if (total === null && first?.doubled !== undefined && first.texts !== undefined) total = matchesFromBm25(first.rank, first.doubled, first.texts);
      total ??= this.db.prepare(`SELECT COUNT(*) FROM text_fts WHERE ${where}`).pluck().get(match, ...docParams) as number;
      if (ranked.length === 0) return { total, ranked: Math.min(total, rankMax), hits: [] };
      const ids = JSON.stringify(ranked.map((r) => r.id));
      // rowid IN hands FTS5 one id at a time, and it sets the query up afresh for each: cheap for
      // words and phrases, but a prefix is every word it starts (catal* over 100,000 pages: 8 ms a
      // hit). Those scan the hits' id range once instead, within the ranked newest texts.
      const rows = hasPrefix(query)
        ? `rowid BETWEEN ${Math.min(...ranked.map((r) => r.id))} AND ${Math.max(...ranked.map((r) => r.id))} AND +rowid`
        : 'rowid';
      const snippets = new Map(
        (
          this.db
            .prepare(
              `SELECT rowid AS id, snippet(text_fts, 2, '${MARK_START}', '${MARK_END}', '…', ${SNIPPET_WORDS}) AS snippet
               FROM text_fts WHERE text_fts MATCH ? AND ${rows} IN (SELECT value FROM json_each(?))`,
            )
            .all(match, ids) as { id: number; snippet: string }[]
        ).map((r) => [r.id, r.snippet]),
      );
      const titles = new Map(
        (this.db.prepare('SELECT id, title FROM text_store WHERE id IN (SELECT value FROM json_each(?))').all(ids) as { id: number; title: string }[]).map(
          (r) => [r.id, r.title],
        ),
      );
      const docOf = this.db.prepare(
        `SELECT url, url_id AS urlId, capture, kind, fetched_at AS fetchedAt, (SELECT COUNT(*) - 1 FROM text_docs o WHERE o.text_id = d.text_id) AS sameText
         FROM text_docs d WHERE text_id = ?${docWhere} ORDER BY capture DESC, url_id LIMIT 1`,
      );
      const hits: SearchHit[] = [];
      for (const r of ranked) {
        const doc = docOf.get(r.id, ...docParams) as Omit<SearchHit, 'title' | 'snippet' | 'score'> | undefined;
        // A text no URL points to any more (its URL was fetched again with other text) is not a hit.
        if (doc === undefined) continue;
        hits.push({
          ...doc,
          title: titles.get(r.id) ? withoutWordBreaks(titles.get(r.id)!) : null,
          snippet: withoutWordBreaks(snippets.get(r.id) ?? '').replace(/\s*\n\s*/g, ' · '),
          score: Math.round(-r.rank * 1e4) / 1e4,
        });
      }
      return { total, ranked: Math.min(total, rankMax), hits };
    } catch (e) {
      // toFtsQuery's output always parses; anything FTS5 still refuses is reported, not thrown raw.
      if ((e as { code?: string }).code?.startsWith('SQLITE_')) throw new SearchError(`search failed: ${(e as Error).message}`);
      throw e;
    }
  }

  /**
   * Commits what is queued and closes; `optimize` once the index is complete. A writer leaves the
   * file in rollback-journal mode, so that it opens read-only later without creating side files.
   */
  /** Commits what is queued and closes this connection, leaving the file's journal as it is (one of several writers). */
  release(): void {
    if (!this.db.open) return;
    this.flush();
    this.db.close();
  }

  close(opts: { optimize?: boolean } = {}): void {
    if (!this.db.open) return;
    if (!this.readonly) {
      this.flush();
      // Merges the index's segments into one: smaller and faster to search, worth it once complete.
      // The merged-away segments leave a third or so of the file free, which VACUUM gives back.
      if (opts.optimize) this.db.exec("INSERT INTO text_fts (text_fts) VALUES ('optimize'); VACUUM;");
      try {
        this.db.pragma('journal_mode = DELETE');
      } catch (e) {
        // A reader (a search in another process) still has the file open: it stays in WAL mode,
        // nothing lost, and the crawl that is closing it does not fail for it.
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      }
    }
    this.db.close();
  }

  /**
   * Compacts a complete index file that no one else is writing (close with `optimize`). A crawl has a
   * document worker do it, so that its own thread keeps reporting progress meanwhile.
   */
  static compact(file: string): void {
    const index = TextIndex.openWritable(file);
    index.close({ optimize: true });
  }
}

/** Moves a freshly built index over the archive's (reindex): readers see the old one or the new, whole. */
export function replaceTextIndex(builtFile: string, archiveDir: string): void {
  const target = TextIndex.fileIn(archiveDir);
  for (const side of ['-wal', '-shm']) rmSync(target + side, { force: true });
  renameSync(builtFile, target);
}
