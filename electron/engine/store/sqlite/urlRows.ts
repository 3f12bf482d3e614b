import type Database from 'better-sqlite3';
import type { SkipReason } from '../../../../shared/crawl.js';
import type { FrontierStore } from '../catalogueStore.js';
import type { FetchOutcome, LinkRow, NewUrl, QueuedRow, Readmission, UrlRow } from '../catalogueTypes.js';
import { GenerationalCache } from '../../generationalCache.js';
import { StringPool } from '../stringPool.js';
import { Statements } from './database.js';

/** Rows kept in memory: the links every page repeats (navigation, shared assets) are met again and again. */
const ROW_CACHE_GENERATION = 16_384;
/** Distinct sites, states, type hints, content types and skip reasons the row cache shares. */
const STRING_POOL_SIZE = 4_096;

const ROW_COLUMNS = 'id, url, site, depth, state, requisite, type_hint, redirect_hops, http_status, content_type, local_path, redirect_to_id, skip_reason';

const SQL = {
  byUrl: `SELECT ${ROW_COLUMNS}, capture FROM urls WHERE url = ?`,
  byId: `SELECT ${ROW_COLUMNS}, capture FROM urls WHERE id = ?`,
  insert: `INSERT INTO urls (url, site, depth, state, requisite, parent_id, via, type_hint, redirect_hops, skip_reason, capture, score)
     VALUES (@url, @site, @depth, @state, @requisite, @parentId, @via, @typeHint, @redirectHops, @skipReason, @capture, @score)`,
  readmit: `UPDATE urls SET capture = @capture, depth = @depth, state = @state, requisite = @requisite, parent_id = @parentId,
       via = @via, type_hint = @typeHint, redirect_hops = @redirectHops, skip_reason = @skipReason, score = @score
     WHERE id = @id`,
  requeue: "UPDATE urls SET state = 'queued', skip_reason = NULL, depth = @depth, requisite = @requisite WHERE id = @id",
  nextQueued:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts FROM urls WHERE site = ? AND state = 'queued' AND attempts = 0 ORDER BY depth, id LIMIT ?",
  nextRetry:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts FROM urls WHERE site = ? AND state = 'queued' AND attempts > 0 ORDER BY depth, id LIMIT ?",
  setAttempts: 'UPDATE urls SET attempts = ? WHERE id = ?',
  nextQueuedBest:
    "SELECT id, url, depth, requisite, type_hint, redirect_hops, attempts, score FROM urls WHERE site = ? AND state = 'queued' AND attempts = 0 ORDER BY score DESC, id LIMIT ?",
  raiseScore: "UPDATE urls SET score = ? WHERE id = ? AND state = 'queued' AND (score IS NULL OR score < ?)",
  forgetBadRobots: 'DELETE FROM robots WHERE error IS NOT NULL OR http_status >= 500',
  requeueRobotsUnreachable: "UPDATE urls SET state = 'queued', skip_reason = NULL, error = NULL WHERE state = 'skipped' AND skip_reason = 'robots:unreachable'",
  requeueFailedSeeds: "UPDATE urls SET state = 'queued', error = NULL, attempts = 0 WHERE state = 'failed' AND depth = 0",
  requeueFailed: "UPDATE urls SET state = 'queued', error = NULL, attempts = 0 WHERE state = 'failed'",
  sitesQueued: "SELECT DISTINCT site FROM urls WHERE state = 'queued'",
  outcome: `UPDATE urls SET state = @state, http_status = @httpStatus, content_type = @contentType, bytes = @bytes,
       local_path = @localPath, redirect_to_id = @redirectToId, error = @error, title = @title, fetched_at = @fetchedAt,
       skip_reason = NULL
     WHERE id = @id`,
  skip: "UPDATE urls SET state = 'skipped', skip_reason = ?, error = ? WHERE id = ?",
  skipAllQueued: "UPDATE urls SET state = 'skipped', skip_reason = ? WHERE state = 'queued' AND id NOT IN (SELECT value FROM json_each(?))",
  skipQueuedPages: "UPDATE urls SET state = 'skipped', skip_reason = ? WHERE state = 'queued' AND requisite = 0 AND id NOT IN (SELECT value FROM json_each(?))",
  resolveRedirectStep: `UPDATE urls SET local_path = (SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id)
     WHERE state = 'redirect' AND local_path IS NULL AND redirect_to_id IS NOT NULL
       AND (SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id) IS NOT NULL`,
  unresolvedRedirects: "SELECT id, redirect_to_id FROM urls WHERE state = 'redirect' AND local_path IS NULL AND error IS NULL",
  markError: 'UPDATE urls SET error = ? WHERE id = ?',
  addLink: 'INSERT INTO links (from_id, to_id, kind, text, written) VALUES (?, ?, ?, ?, ?)',
  dropLinks: 'DELETE FROM links WHERE from_id = ?',
  bumpVariant: 'INSERT INTO query_variants (key, n) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1 RETURNING n',
  staleDocuments: `SELECT DISTINCT l.from_id AS id FROM links l JOIN urls u ON u.id = l.to_id
     WHERE l.from_id BETWEEN ? AND ?
       AND l.written IS NOT (CASE WHEN u.state <> 'queued' THEN u.local_path END)
     ORDER BY l.from_id`,
  maxUrlId: 'SELECT MAX(id) AS n FROM urls',
} as const;

/** The frontier and per-URL log in SQLite, with a cache of recently used rows kept in step with every write. */
export class SqliteUrlRows implements FrontierStore {
  private readonly sql: Statements<keyof typeof SQL>;
  /** Recently used rows by URL, kept in step with every write below (writes name the row's URL). */
  private readonly cache = new GenerationalCache<string, UrlRow>(ROW_CACHE_GENERATION);
  private readonly strings = new StringPool(STRING_POOL_SIZE);

  constructor(
    db: Database.Database,
    private readonly currentCapture: () => number,
    oneCapture = false,
  ) {
    const legacy = { ...SQL, byUrl: `SELECT ${ROW_COLUMNS}, 1 AS capture FROM urls WHERE url = ?`, byId: `SELECT ${ROW_COLUMNS}, 1 AS capture FROM urls WHERE id = ?` };
    this.sql = new Statements(db, oneCapture ? legacy : SQL);
  }

  /** Drops every cached row (after a rollback or a bulk update). */
  forget(): void {
    this.cache.clear();
  }

  lookup(url: string): UrlRow | undefined {
    const hit = this.cache.get(url);
    if (hit) return hit;
    const row = this.sql.get('byUrl').get(url) as UrlRow | undefined;
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
    return this.sql.get('byId').get(id) as UrlRow | undefined;
  }

  insert(u: NewUrl): UrlRow {
    const capture = this.currentCapture();
    const r = this.sql.get('insert').run({ ...u, requisite: u.requisite ? 1 : 0, capture, score: u.score ?? null });
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
      capture,
    };
    this.cache.set(u.url, row);
    return row;
  }

  readmit(row: UrlRow, r: Readmission): void {
    const capture = this.currentCapture();
    this.sql.get('readmit').run({ ...r, id: row.id, capture, requisite: r.requisite ? 1 : 0, score: r.score ?? null });
    const fields: Partial<UrlRow> = {
      capture,
      depth: r.depth,
      state: r.state,
      requisite: r.requisite ? 1 : 0,
      type_hint: this.strings.internOrNull(r.typeHint),
      redirect_hops: r.redirectHops,
      skip_reason: r.skipReason,
    };
    Object.assign(row, fields);
    this.patchCached(row.url, fields);
  }

  requeue(row: UrlRow, depth: number, requisite: boolean): void {
    this.sql.get('requeue').run({ id: row.id, depth, requisite: requisite ? 1 : 0 });
    const fields: Partial<UrlRow> = { state: 'queued', skip_reason: null, depth, requisite: requisite ? 1 : 0 };
    Object.assign(row, fields);
    this.patchCached(row.url, fields);
  }

  private patchCached(url: string, fields: Partial<UrlRow>): void {
    const row = this.cache.get(url);
    if (row) Object.assign(row, fields);
  }

  nextQueued(site: string, limit: number): QueuedRow[] {
    return this.sql.get('nextQueued').all(site, limit) as QueuedRow[];
  }

  nextRetry(site: string, limit: number): QueuedRow[] {
    return this.sql.get('nextRetry').all(site, limit) as QueuedRow[];
  }

  setAttempts(id: number, attempts: number): void {
    this.sql.get('setAttempts').run(attempts, id);
  }

  nextQueuedBest(site: string, limit: number): QueuedRow[] {
    return this.sql.get('nextQueuedBest').all(site, limit) as QueuedRow[];
  }

  raiseScore(id: number, score: number): boolean {
    return this.sql.get('raiseScore').run(score, id, score).changes > 0;
  }

  retryUnreachable(): number {
    this.sql.get('forgetBadRobots').run();
    const skipped = this.sql.get('requeueRobotsUnreachable').run().changes;
    const seeds = this.sql.get('requeueFailedSeeds').run().changes;
    this.forget();
    return skipped + seeds;
  }

  retryFailed(): number {
    const n = this.sql.get('requeueFailed').run().changes;
    this.forget();
    return n;
  }

  sitesWithQueued(): string[] {
    return (this.sql.get('sitesQueued').all() as { site: string }[]).map((r) => r.site);
  }

  recordOutcome(target: { id: number; url: string }, o: FetchOutcome): void {
    this.sql.get('outcome').run({ id: target.id, ...o, fetchedAt: o.fetchedAt ?? new Date().toISOString() });
    this.patchCached(target.url, {
      state: o.state,
      http_status: o.httpStatus,
      content_type: this.strings.internOrNull(o.contentType),
      local_path: o.localPath,
      redirect_to_id: o.redirectToId,
    });
  }

  skip(target: { id: number; url: string }, reason: SkipReason, error: string | null = null): void {
    this.sql.get('skip').run(reason, error, target.id);
    this.patchCached(target.url, { state: 'skipped', skip_reason: reason });
  }

  skipQueued(reason: SkipReason, opts: { keepRequisites: boolean; except: number[] }): number {
    const stmt = this.sql.get(opts.keepRequisites ? 'skipQueuedPages' : 'skipAllQueued');
    const n = stmt.run(reason, JSON.stringify(opts.except)).changes;
    this.forget();
    return n;
  }

  /** One hop per pass: chains are bounded by maxRedirects, and loops never resolve. */
  resolveRedirectChains(): { id: number; redirect_to_id: number | null }[] {
    const step = this.sql.get('resolveRedirectStep');
    while (step.run().changes > 0);
    this.forget();
    return this.sql.get('unresolvedRedirects').all() as { id: number; redirect_to_id: number | null }[];
  }

  markError(id: number, error: string): void {
    this.sql.get('markError').run(error, id);
  }

  /** A range at a time, so a large crawl's check can be spread out. */
  staleDocumentIds(fromId: number, toId: number): number[] {
    const rows = this.sql.get('staleDocuments').all(fromId, toId) as { id: number }[];
    return rows.map((r) => r.id);
  }

  maxUrlId(): number {
    return (this.sql.get('maxUrlId').get() as { n: number | null }).n ?? 0;
  }

  replaceLinks(fromId: number, links: LinkRow[]): void {
    this.sql.get('dropLinks').run(fromId);
    const add = this.sql.get('addLink');
    for (const l of links) add.run(fromId, l.toId, l.kind, l.text, l.written);
  }

  bumpQueryVariant(key: string): number {
    return (this.sql.get('bumpVariant').get(key) as { n: number }).n;
  }
}
