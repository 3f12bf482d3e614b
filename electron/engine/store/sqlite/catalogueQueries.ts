import type Database from 'better-sqlite3';
import type { SkipReason, UrlRecord, UrlState } from '../../../../shared/crawl.js';
import type { FailureReason, RobotsProblem, UrlFacts } from '../../../../shared/urlDetail.js';
import type { CatalogueQueries } from '../catalogueStore.js';
import type { PageRecord, PageRow, UrlQuery } from '../catalogueTypes.js';
import { Statements } from './database.js';

const HTML_TYPE_SQL = "(content_type LIKE 'text/html%' OR content_type LIKE 'application/xhtml+xml%')";

const RECORD_COLUMNS =
  'u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error';

const SQL = {
  // The counts are the current capture's: rows of earlier captures not met again are not part of it.
  countByState: 'SELECT state, COUNT(*) AS n FROM urls WHERE capture = ? GROUP BY state',
  countBySkip: "SELECT skip_reason, COUNT(*) AS n FROM urls WHERE state = 'skipped' AND capture = ? GROUP BY skip_reason",
  bytesTotal: 'SELECT COALESCE(SUM(bytes), 0) AS n FROM urls WHERE bytes IS NOT NULL AND capture = ?',
  // A 304 keeps the size of the payload it stands for, but nothing of it was received again.
  bytesReceived: `SELECT COALESCE(SUM(u.bytes), 0) AS n FROM urls u WHERE u.bytes IS NOT NULL AND u.capture = ?
    AND NOT EXISTS (SELECT 1 FROM url_captures c WHERE c.url_id = u.id AND c.capture_id = u.capture AND c.outcome = 'not-modified')`,
  htmlArchived: `SELECT COUNT(*) AS n FROM urls WHERE state = 'archived' AND ${HTML_TYPE_SQL}`,
  pageOf: 'SELECT url, title, fetched_at AS fetchedAt FROM urls WHERE url = ? AND fetched_at IS NOT NULL',
  htmlPages: `SELECT url, title, fetched_at AS fetchedAt FROM urls WHERE state = 'archived' AND ${HTML_TYPE_SQL} ORDER BY id`,
  // A page gone since (404/410 now) keeps its copy and its path; the date is the copy's, from the
  // last capture that had the page, not that of the answer that found it gone.
  pageAt: `SELECT u.url, u.title, u.local_path AS localPath,
      COALESCE((SELECT c.fetched_at FROM url_captures c WHERE c.url_id = u.id AND c.outcome NOT IN ('removed', 'http-error', 'failed')
        AND c.http_status BETWEEN 200 AND 399 ORDER BY c.capture_id DESC LIMIT 1), u.fetched_at) AS capturedAt
    FROM urls u WHERE u.state IN ('archived', 'http-error') AND u.local_path = ? ORDER BY u.state = 'archived' DESC, u.id LIMIT 1`,
  records: `SELECT ${RECORD_COLUMNS} FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id ORDER BY u.id`,
} as const;

/** The catalogue's read side in SQLite: counts, the URL log and the page list. */
export class SqliteCatalogueQueries implements CatalogueQueries {
  private readonly sql: Statements<keyof typeof SQL>;

  constructor(
    private readonly db: Database.Database,
    private readonly currentCapture: () => number,
    private readonly oneCapture = false,
  ) {
    // Every row of an archive with one capture is that capture's (1 = ? holds for it).
    this.sql = new Statements(db, oneCapture ? mapValues(SQL, (q) => q.replace('capture = ?', '1 = ?')) : SQL);
  }

  countByState(): Record<UrlState, number> {
    const out: Record<UrlState, number> = { queued: 0, archived: 0, redirect: 0, 'http-error': 0, failed: 0, skipped: 0 };
    for (const r of this.sql.get('countByState').all(this.currentCapture()) as { state: UrlState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  countBySkipReason(): Partial<Record<SkipReason, number>> {
    const out: Partial<Record<SkipReason, number>> = {};
    for (const r of this.sql.get('countBySkip').all(this.currentCapture()) as { skip_reason: SkipReason; n: number }[]) out[r.skip_reason] = r.n;
    return out;
  }

  totalBytes(): number {
    return (this.sql.get(this.oneCapture ? 'bytesTotal' : 'bytesReceived').get(this.currentCapture()) as { n: number }).n;
  }

  htmlPagesArchived(): number {
    return (this.sql.get('htmlArchived').get() as { n: number }).n;
  }

  pageOf(url: string): PageRow | null {
    return (this.sql.get('pageOf').get(url) as PageRow | undefined) ?? null;
  }

  *iterateHtmlPages(): Generator<PageRow> {
    yield* this.sql.get('htmlPages').iterate() as Iterable<PageRow>;
  }

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
      .prepare(`SELECT ${RECORD_COLUMNS} FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id ${filter} ORDER BY u.id LIMIT ? OFFSET ?`)
      .all(...params, q.limit, q.offset) as Record<string, unknown>[];
    return { total, rows: rows.map(toUrlRecord) };
  }

  queryPages(q: { search?: string; offset: number; limit: number }): { total: number; rows: PageRecord[] } {
    // Pages removed in the current capture keep their copy, so they stay in the list, marked (a 404's
    // own type is no matter: the page was HTML when it was last there).
    const removedIds = this.oneCapture
      ? 'SELECT NULL WHERE 0 = ?'
      : `SELECT c.url_id FROM url_captures c WHERE c.capture_id = ? AND c.outcome = 'removed' AND EXISTS (SELECT 1 FROM url_captures p
          WHERE p.url_id = c.url_id AND p.capture_id < c.capture_id AND (p.content_type LIKE 'text/html%' OR p.content_type LIKE 'application/xhtml+xml%'))`;
    let filter = `WHERE ((state = 'archived' AND ${HTML_TYPE_SQL}) OR id IN (${removedIds})) AND local_path IS NOT NULL`;
    const params: (string | number)[] = [this.currentCapture()];
    if (q.search) {
      filter += ' AND (instr(url, ?) > 0 OR instr(lower(title), lower(?)) > 0)';
      params.push(q.search, q.search);
    }
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM urls ${filter}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT url, title, local_path AS localPath, id IN (${removedIds}) AS removed FROM urls ${filter} ORDER BY id LIMIT ? OFFSET ?`)
      .all(this.currentCapture(), ...params, q.limit, q.offset) as (Omit<PageRecord, 'removed'> & { removed: 0 | 1 })[];
    return { total, rows: rows.map((r) => ({ ...r, removed: r.removed === 1 })) };
  }

  pageAt(localPath: string): PageRecord | undefined {
    return this.sql.get('pageAt').get(localPath) as PageRecord | undefined;
  }

  /** What the catalogue knows of one canonical URL, for the URL detail panel; null when never discovered. */
  urlFacts(url: string): UrlFacts | null {
    const r = this.db
      .prepare(
        `SELECT u.url, u.state, u.depth, u.http_status, u.content_type, u.bytes, u.local_path, t.url AS redirect_to, u.skip_reason, u.error,
           u.fetched_at, u.via, p.url AS parent_url,
           (SELECT l.text FROM links l WHERE l.from_id = u.parent_id AND l.to_id = u.id AND l.text IS NOT NULL LIMIT 1) AS link_text,
           r.file, r.offset, r.length, rb.http_status AS robots_status, rb.error AS robots_error, rb.site AS robots_site,
           uc.requested_at, uc.headers_ms, uc.duration_ms
         FROM urls u LEFT JOIN urls t ON t.id = u.redirect_to_id LEFT JOIN urls p ON p.id = u.parent_id
           LEFT JOIN url_captures uc ON uc.url_id = u.id AND uc.capture_id = u.capture
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
      timing:
        r.requested_at != null && r.headers_ms != null && r.duration_ms != null
          ? { requestedAt: r.requested_at as string, headersMs: r.headers_ms as number, durationMs: r.duration_ms as number }
          : null,
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

  *iterateRecords(): Generator<UrlRecord> {
    for (const r of this.sql.get('records').iterate() as Iterable<Record<string, unknown>>) yield toUrlRecord(r);
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
    // A redirect's local_path is where its chain ends, an internal detail; list shows files it owns
    // (a URL gone since an earlier capture keeps its copy).
    localPath: r.state !== 'redirect' ? ((r.local_path as string | null) ?? null) : null,
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


function mapValues<K extends string>(o: Readonly<Record<K, string>>, f: (v: string) => string): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(o).map(([k, v]) => [k, f(v)])) as Record<K, string>;
}
