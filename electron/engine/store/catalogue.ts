import Database from 'better-sqlite3';
import type { SkipReason, UrlRecord, UrlState } from '../../../shared/crawl.js';
import type { FailureReason, RobotsProblem, UrlFacts } from '../../../shared/urlDetail.js';
import type { RecordPlace } from '../warc/types.js';
import { GenerationalCache } from './generationalCache.js';
import { StringPool } from './stringPool.js';
import { ADDED_COLUMNS, SCHEMA_INDEXES_SQL, SCHEMA_SQL, SCHEMA_UPGRADES, SCHEMA_VERSION } from './schema.js';

export class ArchiveInUseError extends Error {
  constructor(file: string) {
    super(`archive is already opened by another process (${file} is locked)`);
    this.name = 'ArchiveInUseError';
  }
}

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveFormatError';
  }
}

export interface UrlRow {
  id: number;
  url: string;
  site: string;
  depth: number;
  state: UrlState;
  requisite: number;
  type_hint: string | null;
  redirect_hops: number;
  http_status: number | null;
  content_type: string | null;
  local_path: string | null;
  redirect_to_id: number | null;
  skip_reason: SkipReason | null;
}

export interface QueuedRow {
  id: number;
  url: string;
  depth: number;
  requisite: number;
  type_hint: string | null;
  redirect_hops: number;
  /** Failed attempts so far (transient failures waiting for a retry). */
  attempts: number;
  /** A focused harvest's best-first score (read in best-first order only). */
  score?: number | null;
}

export interface NewUrl {
  url: string;
  site: string;
  depth: number;
  state: 'queued' | 'skipped';
  requisite: boolean;
  parentId: number | null;
  via: string | null;
  typeHint: string | null;
  redirectHops: number;
  skipReason: SkipReason | null;
  /** A focused harvest's best-first score. */
  score?: number | null;
}

export interface FetchOutcome {
  state: Exclude<UrlState, 'queued' | 'skipped'>;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  localPath: string | null;
  redirectToId: number | null;
  error: string | null;
  title: string | null;
}

export interface LinkRow {
  toId: number;
  kind: string;
  text: string | null;
  written: string | null;
}

/** Where a payload was first recorded in the archive's WARC files. */
export interface PayloadCapture {
  url: string;
  date: Date;
  /** Its response record's id, `<urn:uuid:…>`. */
  recordId: string;
  /** Its response record's gzip member; unknown for captures saved by schema version 1. */
  place?: RecordPlace;
}

/**
 * A saved document's original bytes: a payload in the WARC files with the Content-Encoding to undo,
 * or deflated in the catalogue.
 */
export type StoredOriginal = { record: RecordPlace; contentEncoding: string | null } | { packed: Buffer };

export interface PageRow {
  url: string;
  title: string | null;
  /** ISO 8601, when its outcome was recorded. */
  fetchedAt: string;
}

export interface RobotsRow {
  http_status: number | null;
  body: string | null;
  error: string | null;
}

type Stmt = Database.Statement;

export interface UrlQuery {
  state?: UrlState;
  skipReason?: SkipReason;
  /** Substring of the URL. */
  search?: string;
  offset: number;
  limit: number;
}

export interface PageRecord {
  url: string;
  title: string | null;
  localPath: string;
  /** When it was fetched (ISO 8601); given by pageAt only. */
  capturedAt?: string | null;
}

const HTML_TYPE_SQL = "(content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')";

/** Rows kept in memory: the links every page repeats (navigation, shared assets) are met again and again. */
const ROW_CACHE_GENERATION = 16_384;
/** Distinct sites, states, type hints, content types and skip reasons the row cache shares. */
const STRING_POOL_SIZE = 4_096;
/** meta key: `<end> <file>` for the WARC file being written (see WarcCheckpoints). */
const WARC_CHECKPOINT = 'warc_checkpoint';

/** The catalogue's statements, prepared on first use: a read-only open of an older schema only prepares what it reads. */
const STATEMENTS = {
  getMeta: 'SELECT value FROM meta WHERE key = ?',
  setMeta: 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  byUrl: 'SELECT id, url, site, depth, state, requisite, type_hint, redirect_hops, http_status, content_type, local_path, redirect_to_id, skip_reason FROM urls WHERE url = ?',
  byId: 'SELECT id, url, site, depth, state, requisite, type_hint, redirect_hops, http_status, content_type, local_path, redirect_to_id, skip_reason FROM urls WHERE id = ?',
  insert: `INSERT INTO urls (url, site, depth, state, requisite, parent_id, via, type_hint, redirect_hops, skip_reason, score)
     VALUES (@url, @site, @depth, @state, @requisite, @parentId, @via, @typeHint, @redirectHops, @skipReason, @score)`,
  requeue: "UPDATE urls SET state = 'queued', skip_reason = NULL, depth = @depth, requisite = @requisite WHERE id = @id",
  nextQueued:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts FROM urls WHERE site = ? AND state = 'queued' AND attempts = 0 ORDER BY depth, id LIMIT ?",
  nextRetry:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts FROM urls WHERE site = ? AND state = 'queued' AND attempts > 0 ORDER BY depth, id LIMIT ?",
  setAttempts: 'UPDATE urls SET attempts = ? WHERE id = ?',
  nextQueuedBest:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts, score FROM urls WHERE site = ? AND state = 'queued' AND attempts = 0 ORDER BY score DESC, id LIMIT ?",
  raiseScore: "UPDATE urls SET score = ? WHERE id = ? AND state = 'queued' AND (score IS NULL OR score < ?)",
  sitesQueued: "SELECT DISTINCT site FROM urls WHERE state = 'queued'",
  outcome: `UPDATE urls SET state = @state, http_status = @httpStatus, content_type = @contentType, bytes = @bytes,
       local_path = @localPath, redirect_to_id = @redirectToId, error = @error, title = @title, fetched_at = @fetchedAt,
       skip_reason = NULL
     WHERE id = @id`,
  skip: "UPDATE urls SET state = 'skipped', skip_reason = ?, error = ? WHERE id = ?",
  skipAllQueued: "UPDATE urls SET state = 'skipped', skip_reason = ? WHERE state = 'queued' AND id NOT IN (SELECT value FROM json_each(?))",
  skipQueuedPages: "UPDATE urls SET state = 'skipped', skip_reason = ? WHERE state = 'queued' AND requisite = 0 AND id NOT IN (SELECT value FROM json_each(?))",
  addLink: 'INSERT INTO links (from_id, to_id, kind, text, written) VALUES (?, ?, ?, ?, ?)',
  dropLinks: 'DELETE FROM links WHERE from_id = ?',
  bumpVariant: 'INSERT INTO query_variants (key, n) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1 RETURNING n',
  getRobots: 'SELECT http_status, body, error FROM robots WHERE site = ?',
  putRobots: 'INSERT OR REPLACE INTO robots (site, http_status, body, error, fetched_at) VALUES (?, ?, ?, ?, ?)',
  putPackedOriginal: 'INSERT OR REPLACE INTO originals (url_id, content_type, body) VALUES (?, ?, ?)',
  dropPackedOriginal: 'DELETE FROM originals WHERE url_id = ?',
  getPackedOriginal: 'SELECT body FROM originals WHERE url_id = ?',
  putOriginalRecord:
    'INSERT OR REPLACE INTO original_records (url_id, file, offset, length, content_encoding) VALUES (?, ?, ?, ?, ?)',
  dropOriginalRecord: 'DELETE FROM original_records WHERE url_id = ?',
  getOriginalRecord: 'SELECT file, offset, length, content_encoding FROM original_records WHERE url_id = ?',
  staleDocuments: `SELECT DISTINCT l.from_id AS id FROM links l JOIN urls u ON u.id = l.to_id
     WHERE l.from_id BETWEEN ? AND ?
       AND l.written IS NOT (CASE WHEN u.state IN ('archived', 'redirect') THEN u.local_path END)
     ORDER BY l.from_id`,
  maxUrlId: 'SELECT MAX(id) AS n FROM urls',
  captureByDigest: 'SELECT url, date, record_id, file, offset, length FROM payload_captures WHERE digest = ?',
  putCapture: 'INSERT OR IGNORE INTO payload_captures (digest, url, date, record_id, file, offset, length) VALUES (?, ?, ?, ?, ?, ?, ?)',
  countByState: 'SELECT state, COUNT(*) AS n FROM urls GROUP BY state',
  countBySkip: "SELECT skip_reason, COUNT(*) AS n FROM urls WHERE state = 'skipped' GROUP BY skip_reason",
  bytesTotal: 'SELECT COALESCE(SUM(bytes), 0) AS n FROM urls WHERE bytes IS NOT NULL',
  htmlArchived: "SELECT COUNT(*) AS n FROM urls WHERE state = 'archived' AND (content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')",
} as const;

/**
 * Typed access to one archive's catalogue. Opened with an exclusive lock that the OS drops when the
 * process dies, so a crashed crawl never blocks its own resume while a live one can't be opened twice.
 */
export class Catalogue {
  private readonly prepared = new Map<keyof typeof STATEMENTS, Stmt>();
  /** Recently used rows by URL, kept in step with every write below (writes name the row's URL). */
  private readonly cache = new GenerationalCache<string, UrlRow>(ROW_CACHE_GENERATION);
  private readonly strings = new StringPool(STRING_POOL_SIZE);

  private constructor(private readonly db: Database.Database) {}

  private stmt(name: keyof typeof STATEMENTS): Stmt {
    let statement = this.prepared.get(name);
    if (statement === undefined) {
      statement = this.db.prepare(STATEMENTS[name]);
      this.prepared.set(name, statement);
    }
    return statement;
  }

  static open(file: string, opts: { readonly?: boolean } = {}): Catalogue {
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false, timeout: 0 });
    } catch (e) {
      throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
    }
    try {
      if (!opts.readonly) {
        // Exclusive locking: the lock is taken by the first write below and held until close, and
        // with it WAL needs no shared memory, so nothing is left behind by a crash.
        db.pragma('locking_mode = EXCLUSIVE');
        db.pragma('journal_mode = WAL');
        // NORMAL in WAL mode: a commit survives a killed process; only power loss can cost the last few.
        db.pragma('synchronous = NORMAL');
        // A checkpoint fsyncs and blocks; a crawl runs its own (checkpoint()) at moments that suit
        // it. This is the backstop: 16,384 pages bounds the WAL file at 64 MB and its index at ~0.5 MB.
        db.pragma('wal_autocheckpoint = 16384');
        db.transaction(() => {
          db.exec(SCHEMA_SQL);
          const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
          const version = v ? Number(v.value) : SCHEMA_VERSION;
          if (version !== SCHEMA_VERSION && SCHEMA_UPGRADES[version] === undefined) {
            throw new ArchiveFormatError(`archive schema version ${v!.value} is not supported (expected ${SCHEMA_VERSION})`);
          }
          for (let from = version; from < SCHEMA_VERSION; from++) db.exec(SCHEMA_UPGRADES[from]!);
          for (const { table, column, sql } of ADDED_COLUMNS) {
            const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
            if (!columns.some((c) => c.name === column)) db.exec(sql);
          }
          db.exec(SCHEMA_INDEXES_SQL);
          db.prepare(
            "INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          ).run(String(SCHEMA_VERSION));
        })();
      } else {
        db.prepare('SELECT 1 FROM meta LIMIT 1').get();
      }
    } catch (e) {
      db.close();
      if (isBusy(e)) throw new ArchiveInUseError(file);
      if (e instanceof ArchiveFormatError) throw e;
      throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
    }
    return new Catalogue(db);
  }

  /** The connection, for modules that keep queries of their own over the catalogue (text index, QA report). */
  get sqlite(): Database.Database {
    return this.db;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * Copies the write-ahead log into the database now. It blocks for as long as the log is big (some
   * 450 ms for 64 MB here), so a crawl calls it often enough to keep each one short.
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      // Cached rows may hold writes that were just rolled back.
      this.forget();
      throw e;
    }
  }

  getMeta(key: string): string | null {
    const r = this.stmt('getMeta').get(key) as { value: string } | undefined;
    return r ? r.value : null;
  }

  setMeta(key: string, value: string): void {
    this.stmt('setMeta').run(key, value);
  }

  /** How far the unfinished WARC file `file` was known to hold complete records, or null. */
  warcCheckpoint(file: string): number | null {
    const saved = this.getMeta(WARC_CHECKPOINT);
    const space = saved?.indexOf(' ') ?? -1;
    if (saved == null || space < 0 || saved.slice(space + 1) !== file) return null;
    const end = Number(saved.slice(0, space));
    return Number.isSafeInteger(end) ? end : null;
  }

  /** Only the file being written needs one, so each replaces the last. */
  setWarcCheckpoint(file: string, end: number): void {
    this.setMeta(WARC_CHECKPOINT, `${end} ${file}`);
  }

  lookup(url: string): UrlRow | undefined {
    const hit = this.cache.get(url);
    if (hit) return hit;
    const row = this.stmt('byUrl').get(url) as UrlRow | undefined;
    if (row) {
      // The key and the row share one copy of the URL; repeated values share one copy each.
      row.url = url;
      row.site = this.strings.intern(row.site);
      row.state = this.strings.intern(row.state);
      row.type_hint = this.strings.internOrNull(row.type_hint);
      row.content_type = this.strings.internOrNull(row.content_type);
      row.skip_reason = this.strings.internOrNull(row.skip_reason);
      this.cache.set(url, row);
    }
    return row;
  }

  get(id: number): UrlRow | undefined {
    return this.stmt('byId').get(id) as UrlRow | undefined;
  }

  private forget(): void {
    this.cache.clear();
  }

  insert(u: NewUrl): UrlRow {
    const r = this.stmt('insert').run({ ...u, requisite: u.requisite ? 1 : 0, score: u.score ?? null });
    const row: UrlRow = {
      id: Number(r.lastInsertRowid),
      url: u.url,
      site: this.strings.intern(u.site),
      depth: u.depth,
      state: u.state,
      requisite: u.requisite ? 1 : 0,
      type_hint: this.strings.internOrNull(u.typeHint),
      redirect_hops: u.redirectHops,
      http_status: null,
      content_type: null,
      local_path: null,
      redirect_to_id: null,
      skip_reason: u.skipReason,
    };
    this.cache.set(u.url, row);
    return row;
  }

  requeue(row: UrlRow, depth: number, requisite: boolean): void {
    this.stmt('requeue').run({ id: row.id, depth, requisite: requisite ? 1 : 0 });
    const fields: Partial<UrlRow> = { state: 'queued', skip_reason: null, depth, requisite: requisite ? 1 : 0 };
    Object.assign(row, fields);
    this.patchCached(row.url, fields);
  }

  private patchCached(url: string, fields: Partial<UrlRow>): void {
    const row = this.cache.get(url);
    if (row) Object.assign(row, fields);
  }

  nextQueued(site: string, limit: number): QueuedRow[] {
    return this.stmt('nextQueued').all(site, limit) as QueuedRow[];
  }

  /** Queued URLs of a site waiting for a retry (a transient failure), in queue order. */
  nextRetry(site: string, limit: number): QueuedRow[] {
    return this.stmt('nextRetry').all(site, limit) as QueuedRow[];
  }

  /** Counts a failed attempt of a queued URL; it stays queued. */
  setAttempts(id: number, attempts: number): void {
    this.stmt('setAttempts').run(attempts, id);
  }

  /** A focused harvest's queue order: highest score first, then discovery (retries apart, as nextQueued). */
  nextQueuedBest(site: string, limit: number): QueuedRow[] {
    return this.stmt('nextQueuedBest').all(site, limit) as QueuedRow[];
  }

  /** A queued URL met again through a better link moves up; returns whether it did. */
  raiseScore(id: number, score: number): boolean {
    return this.stmt('raiseScore').run(score, id, score).changes > 0;
  }

  /** The connection, for the stores of optional features that keep tables of their own (focusStore.ts). */
  get connection(): Database.Database {
    return this.db;
  }

  sitesWithQueued(): string[] {
    return (this.stmt('sitesQueued').all() as { site: string }[]).map((r) => r.site);
  }

  recordOutcome(target: { id: number; url: string }, o: FetchOutcome): void {
    this.stmt('outcome').run({ id: target.id, ...o, fetchedAt: new Date().toISOString() });
    this.patchCached(target.url, {
      state: o.state,
      http_status: o.httpStatus,
      content_type: this.strings.internOrNull(o.contentType),
      local_path: o.localPath,
      redirect_to_id: o.redirectToId,
    });
  }

  /** `error` says what lies behind the reason, e.g. why robots.txt could not be had. */
  skip(target: { id: number; url: string }, reason: SkipReason, error: string | null = null): void {
    this.stmt('skip').run(reason, error, target.id);
    this.patchCached(target.url, { state: 'skipped', skip_reason: reason });
  }

  /**
   * Skips what is still queued, except the ids in `except` (running now) and, with `keepRequisites`,
   * requisites; returns how many.
   */
  skipQueued(reason: SkipReason, opts: { keepRequisites: boolean; except: number[] }): number {
    const stmt = opts.keepRequisites ? this.stmt('skipQueuedPages') : this.stmt('skipAllQueued');
    const n = stmt.run(reason, JSON.stringify(opts.except)).changes;
    this.forget();
    return n;
  }

  /**
   * Gives each redirect the local path its chain ends at, one hop per pass (chains are bounded by
   * maxRedirects; loops never resolve). Returns the redirects left unresolved, with their targets.
   */
  resolveRedirectChains(): { id: number; redirect_to_id: number | null }[] {
    const step = this.db.prepare(
      `UPDATE urls SET local_path = (SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id)
       WHERE state = 'redirect' AND local_path IS NULL AND redirect_to_id IS NOT NULL
         AND (SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id) IS NOT NULL`,
    );
    while (step.run().changes > 0);
    this.forget();
    return this.db
      .prepare("SELECT id, redirect_to_id FROM urls WHERE state = 'redirect' AND local_path IS NULL AND error IS NULL")
      .all() as { id: number; redirect_to_id: number | null }[];
  }

  markError(id: number, error: string): void {
    this.db.prepare('UPDATE urls SET error = ? WHERE id = ?').run(error, id);
  }

  /**
   * Saved documents with ids in [fromId, toId] and a reference whose written target differs from
   * where it must now point. A range at a time, so a large crawl's check can be spread out.
   */
  staleDocumentIds(fromId: number, toId: number): number[] {
    const rows = this.stmt('staleDocuments').all(fromId, toId) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** The highest URL id given so far (0 when none). */
  maxUrlId(): number {
    return (this.stmt('maxUrlId').get() as { n: number | null }).n ?? 0;
  }

  replaceLinks(fromId: number, links: LinkRow[]): void {
    this.stmt('dropLinks').run(fromId);
    for (const l of links) this.stmt('addLink').run(fromId, l.toId, l.kind, l.text, l.written);
  }

  /** Counts a new query string for `key` and returns how many distinct ones it now has. */
  bumpQueryVariant(key: string): number {
    return (this.stmt('bumpVariant').get(key) as { n: number }).n;
  }

  getRobots(site: string): RobotsRow | undefined {
    return this.stmt('getRobots').get(site) as RobotsRow | undefined;
  }

  putRobots(site: string, r: RobotsRow): void {
    this.stmt('putRobots').run(site, r.http_status, r.body, r.error, new Date().toISOString());
  }

  /** Where a saved document's original bytes are kept; a URL has one place, the last one put. */
  putOriginal(urlId: number, contentType: string | null, original: StoredOriginal): void {
    if ('packed' in original) {
      this.stmt('dropOriginalRecord').run(urlId);
      this.stmt('putPackedOriginal').run(urlId, contentType, original.packed);
    } else {
      this.stmt('dropPackedOriginal').run(urlId);
      const { file, offset, length } = original.record;
      this.stmt('putOriginalRecord').run(urlId, file, offset, length, original.contentEncoding);
    }
  }

  getOriginal(urlId: number): StoredOriginal | undefined {
    const record = this.stmt('getOriginalRecord').get(urlId) as (RecordPlace & { content_encoding: string | null }) | undefined;
    if (record) return { record: { file: record.file, offset: record.offset, length: record.length }, contentEncoding: record.content_encoding };
    const packed = this.stmt('getPackedOriginal').get(urlId) as { body: Buffer } | undefined;
    return packed && { packed: packed.body };
  }

  /** The first capture recorded for a payload digest, if any (the original a revisit points to). */
  captureByDigest(digest: string): PayloadCapture | null {
    const r = this.stmt('captureByDigest').get(digest) as
      | { url: string; date: string; record_id: string; file: string | null; offset: number | null; length: number | null }
      | undefined;
    if (!r) return null;
    const capture: PayloadCapture = { url: r.url, date: new Date(r.date), recordId: r.record_id };
    if (r.file !== null && r.offset !== null && r.length !== null) capture.place = { file: r.file, offset: r.offset, length: r.length };
    return capture;
  }

  /** Remembers a payload's first capture; a digest already known keeps its first one. */
  putCapture(digest: string, capture: PayloadCapture): void {
    const { file = null, offset = null, length = null } = capture.place ?? {};
    this.stmt('putCapture').run(digest, capture.url, capture.date.toISOString(), capture.recordId, file, offset, length);
  }

  countByState(): Record<UrlState, number> {
    const out: Record<UrlState, number> = { queued: 0, archived: 0, redirect: 0, 'http-error': 0, failed: 0, skipped: 0 };
    for (const r of this.stmt('countByState').all() as { state: UrlState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  countBySkipReason(): Partial<Record<SkipReason, number>> {
    const out: Partial<Record<SkipReason, number>> = {};
    for (const r of this.stmt('countBySkip').all() as { skip_reason: SkipReason; n: number }[]) out[r.skip_reason] = r.n;
    return out;
  }

  totalBytes(): number {
    return (this.stmt('bytesTotal').get() as { n: number }).n;
  }

  htmlPagesArchived(): number {
    return (this.stmt('htmlArchived').get() as { n: number }).n;
  }

  /** A URL's title and fetch time, if it was fetched. */
  pageOf(url: string): PageRow | null {
    const r = this.db
      .prepare('SELECT url, title, fetched_at AS fetchedAt FROM urls WHERE url = ? AND fetched_at IS NOT NULL')
      .get(url) as PageRow | undefined;
    return r ?? null;
  }

  /** Archived HTML pages in discovery order, streamed (what a WACZ's page list holds). */
  *iterateHtmlPages(): Generator<PageRow> {
    const stmt = this.db.prepare(
      `SELECT url, title, fetched_at AS fetchedAt FROM urls
       WHERE state = 'archived' AND (content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')
       ORDER BY id`,
    );
    yield* stmt.iterate() as Iterable<PageRow>;
  }

  /** One page of the per-URL log in discovery order, filtered by state, skip reason and a URL substring. */
  queryUrls(q: UrlQuery): { total: number; rows: UrlRecord[] } {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (q.state) {
      where.push('u.state = ?');
      params.push(q.state);
    }
    if (q.skipReason) {
      where.push('u.skip_reason = ?');
      params.push(q.skipReason);
    }
    if (q.search) {
      where.push('instr(u.url, ?) > 0');
      params.push(q.search);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM urls u ${filter}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error
         FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id ${filter} ORDER BY u.id LIMIT ? OFFSET ?`,
      )
      .all(...params, q.limit, q.offset) as Record<string, unknown>[];
    return { total, rows: rows.map(toUrlRecord) };
  }

  /** One page of the archived HTML pages, searchable by URL and title. */
  queryPages(q: { search?: string; offset: number; limit: number }): { total: number; rows: PageRecord[] } {
    let filter = `WHERE state = 'archived' AND local_path IS NOT NULL AND ${HTML_TYPE_SQL}`;
    const params: string[] = [];
    if (q.search) {
      filter += ' AND (instr(url, ?) > 0 OR instr(lower(title), lower(?)) > 0)';
      params.push(q.search, q.search);
    }
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM urls ${filter}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT url, title, local_path AS localPath FROM urls ${filter} ORDER BY id LIMIT ? OFFSET ?`)
      .all(...params, q.limit, q.offset) as PageRecord[];
    return { total, rows };
  }

  /** The archived URL saved at a mirror path, or undefined. */
  pageAt(localPath: string): PageRecord | undefined {
    return this.db
      .prepare("SELECT url, title, local_path AS localPath, fetched_at AS capturedAt FROM urls WHERE state = 'archived' AND local_path = ? ORDER BY id LIMIT 1")
      .get(localPath) as PageRecord | undefined;
  }

  /** What the catalogue knows of one canonical URL, for the URL detail panel; null when never discovered. */
  urlFacts(url: string): UrlFacts | null {
    const r = this.db
      .prepare(
        `SELECT u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error,
           u.fetched_at, u.via, p.url AS parent_url,
           (SELECT l.text FROM links l WHERE l.from_id = u.parent_id AND l.to_id = u.id AND l.text IS NOT NULL LIMIT 1) AS link_text,
           r.file, r.offset, r.length, rb.http_status AS robots_status, rb.error AS robots_error, rb.site AS robots_site
         FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id LEFT JOIN urls p ON p.id = u.parent_id
           LEFT JOIN original_records r ON r.url_id = u.id
           LEFT JOIN robots rb ON rb.site = u.site AND u.skip_reason IN ('robots', 'robots:unreachable')
         WHERE u.url = ?`,
      )
      .get(url) as Record<string, unknown> | undefined;
    if (!r) return null;
    let place = r.file ? { file: r.file as string, offset: r.offset as number, length: r.length as number } : null;
    if (!place) {
      // A first capture of a payload knows its record too (no index on url: one scan, on demand only).
      const c = this.db
        .prepare('SELECT file, offset, length FROM payload_captures WHERE url = ? AND file IS NOT NULL ORDER BY date DESC LIMIT 1')
        .get(url) as { file: string; offset: number; length: number } | undefined;
      place = c ?? null;
    }
    return {
      record: toUrlRecord(r),
      fetchedAt: (r.fetched_at as string | null) ?? null,
      via: (r.via as string | null) ?? null,
      linkedFrom: r.parent_url ? { url: r.parent_url as string, text: (r.link_text as string | null) ?? null } : null,
      warcPlace: place,
      robots: r.robots_site ? { httpStatus: (r.robots_status as number | null) ?? null, error: (r.robots_error as string | null) ?? null } : null,
    };
  }

  /** Sites whose robots.txt could not be read (unreachable, or a 5xx), which keeps the crawl out of them. */
  robotsProblems(): RobotsProblem[] {
    return (
      this.db.prepare('SELECT site, http_status, error FROM robots WHERE error IS NOT NULL OR http_status >= 500 ORDER BY site').all() as {
        site: string;
        http_status: number | null;
        error: string | null;
      }[]
    ).map((r) => ({ site: r.site, httpStatus: r.http_status, error: r.error }));
  }

  /** The commonest reasons URLs failed or got an HTTP error: the error's text, or `HTTP <status>`. */
  topFailures(limit: number): FailureReason[] {
    return this.db
      .prepare(
        `SELECT CASE WHEN state = 'http-error' THEN 'HTTP ' || COALESCE(http_status, '?') ELSE COALESCE(error, 'unknown error') END AS reason,
           COUNT(*) AS count
         FROM urls WHERE state IN ('failed', 'http-error') GROUP BY reason ORDER BY count DESC, reason LIMIT ?`,
      )
      .all(limit) as FailureReason[];
  }

  /**
   * Puts back what a run could not reach, so the next one asks again: robots.txt that was
   * unreachable or answered 5xx is forgotten, the URLs it kept out are queued again, and so are
   * seeds (and their redirect hops) that failed without an answer. Returns how many were queued.
   */
  retryUnreachable(): number {
    this.db.prepare('DELETE FROM robots WHERE error IS NOT NULL OR http_status >= 500').run();
    const skipped = this.db
      .prepare("UPDATE urls SET state = 'queued', skip_reason = NULL, error = NULL WHERE state = 'skipped' AND skip_reason = 'robots:unreachable'")
      .run().changes;
    const seeds = this.db.prepare("UPDATE urls SET state = 'queued', error = NULL, attempts = 0 WHERE state = 'failed' AND depth = 0").run().changes;
    this.forget();
    return skipped + seeds;
  }

  /** One URL's record, or null. */
  recordOf(url: string): UrlRecord | null {
    const r = this.db
      .prepare(
        `SELECT u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error
         FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id WHERE u.url = ?`,
      )
      .get(url) as Record<string, unknown> | undefined;
    return r ? toUrlRecord(r) : null;
  }

  /** Every URL in discovery order, streamed so a million-row archive lists in flat memory. */
  *iterateRecords(): Generator<UrlRecord> {
    const stmt = this.db.prepare(
      `SELECT u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error
       FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id ORDER BY u.id`,
    );
    for (const r of stmt.iterate() as Iterable<Record<string, unknown>>) {
      yield toUrlRecord(r);
    }
  }
}

function toUrlRecord(r: Record<string, unknown>): UrlRecord {
  return {
    url: r.url as string,
    state: r.state as UrlState,
    depth: r.depth as number,
    httpStatus: (r.http_status as number | null) ?? null,
    contentType: (r.content_type as string | null) ?? null,
    bytes: (r.bytes as number | null) ?? null,
    // A redirect's local_path is where its chain ends, an internal detail; list shows files it owns.
    localPath: r.state === 'archived' ? ((r.local_path as string | null) ?? null) : null,
    redirectTo: (r.redirect_to as string | null) ?? null,
    skipReason: (r.skip_reason as SkipReason | null) ?? null,
    error: (r.error as string | null) ?? null,
    reason: reasonOf(r),
  };
}

/** Why a URL was not archived, in one line: its error, skip reason or answer; null for archived and queued URLs. */
function reasonOf(r: Record<string, unknown>): string | null {
  const error = (r.error as string | null) ?? null;
  switch (r.state as UrlState) {
    case 'skipped':
      return error === null ? `skipped: ${String(r.skip_reason)}` : `skipped: ${String(r.skip_reason)}: ${error}`;
    case 'redirect':
      return error ?? `HTTP ${String(r.http_status)} redirect to ${(r.redirect_to as string | null) ?? 'an unusable URL'}`;
    case 'http-error':
      return error ?? `HTTP ${String(r.http_status)}`;
    case 'failed':
      return error ?? 'failed';
    default:
      return null;
  }
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}
