import type Database from 'better-sqlite3';
import {
  CAPTURE_OUTCOMES,
  emptyOutcomeCounts,
  OUTCOME_KEYS,
  type CaptureOutcome,
  type CaptureSummary,
  type ChangeReport,
} from '../../../../shared/captures.js';
import type { CrawlState } from '../../../../shared/crawl.js';
import { compareCapture, isPresent } from '../captureOutcome.js';
import type { CaptureStore } from '../catalogueStore.js';
import type { CapturePage, UrlCapture } from '../catalogueTypes.js';
import { Statements } from './database.js';
import type { SqliteMeta } from './metaRows.js';

/** meta key: the capture being made, or the last one made. */
const CAPTURE_KEY = 'capture';
const DEFAULT_LIST_LIMIT = 1_000_000;
const PRESENT_OUTCOMES = "('new', 'restored', 'changed', 'markup-only', 'unchanged', 'not-modified')";
/** The outcome as counted: archives made before the `http-error` outcome recorded error statuses as failed or unchanged. */
const COUNTED_OUTCOME = "CASE WHEN outcome IN ('failed', 'unchanged') AND http_status >= 400 THEN 'http-error' ELSE outcome END";

const COLUMNS = `url_id, capture_id, outcome, http_status, content_type, bytes, payload_digest, text_digest, local_path, etag,
  last_modified, warc_file, warc_offset, warc_length, content_encoding, fetched_at, requested_at, headers_ms, duration_ms`;

const SQL = {
  insertCapture: 'INSERT OR IGNORE INTO captures (id, started_at, state) VALUES (?, ?, ?)',
  maxCapture: 'SELECT MAX(id) AS n FROM captures',
  endRun: 'UPDATE captures SET state = ?, duration_ms = ?, finished_at = ? WHERE id = ?',
  previous: `SELECT ${COLUMNS} FROM url_captures WHERE url_id = ? AND capture_id < ? ORDER BY capture_id DESC LIMIT 1`,
  put: `INSERT OR REPLACE INTO url_captures (${COLUMNS}) VALUES (@urlId, @capture, @outcome, @httpStatus, @contentType, @bytes,
    @payloadDigest, @textDigest, @localPath, @etag, @lastModified, @warcFile, @warcOffset, @warcLength, @contentEncoding, @fetchedAt,
    @requestedAt, @headersMs, @durationMs)`,
  sweepRemoved: `INSERT INTO url_captures (url_id, capture_id, outcome, content_type, bytes, local_path, fetched_at)
    SELECT p.url_id, @capture, 'removed', p.content_type, p.bytes, p.local_path, @at FROM url_captures p
    WHERE p.capture_id = (SELECT MAX(q.capture_id) FROM url_captures q WHERE q.url_id = p.url_id AND q.capture_id < @capture)
      AND p.outcome IN ${PRESENT_OUTCOMES} AND p.http_status BETWEEN 200 AND 399
      AND NOT EXISTS (SELECT 1 FROM url_captures c WHERE c.url_id = p.url_id AND c.capture_id = @capture)`,
  captures: 'SELECT id, started_at, finished_at, state, duration_ms FROM captures ORDER BY id',
  outcomeCounts: `SELECT capture_id, ${COUNTED_OUTCOME} AS outcome, COUNT(*) AS n,
      SUM(CASE WHEN outcome IN ('new', 'restored', 'changed', 'markup-only') THEN COALESCE(bytes, 0) ELSE 0 END) AS added
    FROM url_captures GROUP BY capture_id, 2`,
  countsOf: `SELECT ${COUNTED_OUTCOME} AS outcome, COUNT(*) AS n FROM url_captures WHERE capture_id = ? GROUP BY 1`,
  urlsWith: `SELECT u.url FROM url_captures c JOIN urls u ON u.id = c.url_id WHERE c.capture_id = ? AND c.outcome = ?
    ORDER BY u.id LIMIT ? OFFSET ?`,
  capturesOf: `SELECT ${COLUMNS} FROM url_captures WHERE url_id = (SELECT id FROM urls WHERE url = ?) ORDER BY capture_id`,
  pages: `SELECT u.url, u.title, c.fetched_at AS fetchedAt, c.capture_id AS capture FROM url_captures c JOIN urls u ON u.id = c.url_id
    WHERE (@capture IS NULL OR c.capture_id = @capture) AND c.outcome IN ${PRESENT_OUTCOMES}
      AND (c.http_status BETWEEN 200 AND 299 OR c.outcome = 'not-modified')
      AND (c.content_type LIKE 'text/html%' OR c.content_type LIKE 'application/xhtml+xml%')
    ORDER BY c.capture_id, u.id`,
  // The URL now saved at the path, else one an earlier capture saved there.
  urlAtPath: `SELECT id, url FROM urls WHERE local_path = @path
    UNION ALL SELECT u.id, u.url FROM url_captures c JOIN urls u ON u.id = c.url_id WHERE c.local_path = @path
    LIMIT 1`,
  nearestReadable: `SELECT ${COLUMNS} FROM url_captures WHERE url_id = ? AND warc_file IS NOT NULL
    ORDER BY ABS(capture_id - @capture), capture_id LIMIT 1`,
  between: `SELECT u.url, n.outcome AS n_outcome, n.http_status AS n_status, n.payload_digest AS n_digest, n.text_digest AS n_text,
      m.outcome AS m_outcome, m.http_status AS m_status, m.payload_digest AS m_digest, m.text_digest AS m_text
    FROM urls u
      LEFT JOIN url_captures n ON n.url_id = u.id AND n.capture_id = @capture
      LEFT JOIN url_captures m ON m.url_id = u.id AND m.capture_id = @since
    WHERE n.url_id IS NOT NULL OR m.url_id IS NOT NULL
    ORDER BY u.id`,
} as const;

interface CaptureRow {
  url_id: number;
  capture_id: number;
  outcome: CaptureOutcome;
  http_status: number | null;
  content_type: string | null;
  bytes: number | null;
  payload_digest: string | null;
  text_digest: string | null;
  local_path: string | null;
  etag: string | null;
  last_modified: string | null;
  warc_file: string | null;
  warc_offset: number | null;
  warc_length: number | null;
  content_encoding: string | null;
  fetched_at: string;
  requested_at: string | null;
  headers_ms: number | null;
  duration_ms: number | null;
}

/** The archive's captures and each URL's row per capture, in SQLite. */
export class SqliteCaptureRows implements Omit<CaptureStore, 'beginCapture'> {
  private readonly sql: Statements<keyof typeof SQL>;
  private current: number;

  constructor(
    db: Database.Database,
    private readonly meta: SqliteMeta,
  ) {
    this.sql = new Statements(db, SQL);
    this.current = Number(meta.getMeta(CAPTURE_KEY) ?? '1');
  }

  currentCapture(): number {
    return this.current;
  }

  ensureCapture(startedAt: Date): void {
    this.sql.get('insertCapture').run(this.current, startedAt.toISOString(), 'running');
  }

  /** Adds the next capture's row and makes it current; the caller resets the rest in the same transaction. */
  nextCapture(startedAt: Date): number {
    const last = (this.sql.get('maxCapture').get() as { n: number | null }).n ?? 0;
    const next = Math.max(last, this.current) + 1;
    this.sql.get('insertCapture').run(next, startedAt.toISOString(), 'paused');
    this.meta.setMeta(CAPTURE_KEY, String(next));
    this.current = next;
    return next;
  }

  /** After a rolled-back beginCapture. */
  reload(): void {
    this.current = Number(this.meta.getMeta(CAPTURE_KEY) ?? '1');
  }

  endCaptureRun(state: CrawlState, durationMs: number, finishedAt: Date | null): void {
    this.sql.get('endRun').run(state, Math.round(durationMs), finishedAt?.toISOString() ?? null, this.current);
  }

  previousCapture(urlId: number, before = this.current): UrlCapture | undefined {
    const r = this.sql.get('previous').get(urlId, before) as CaptureRow | undefined;
    return r && toUrlCapture(r);
  }

  putUrlCapture(c: UrlCapture): void {
    this.sql.get('put').run({
      ...c,
      warcFile: c.record?.file ?? null,
      warcOffset: c.record?.offset ?? null,
      warcLength: c.record?.length ?? null,
      requestedAt: c.timing?.requestedAt ?? null,
      headersMs: c.timing === null ? null : Math.round(c.timing.headersMs),
      durationMs: c.timing === null ? null : Math.round(c.timing.durationMs),
    });
  }

  markUnreachedRemoved(at: Date): number {
    return this.sql.get('sweepRemoved').run({ capture: this.current, at: at.toISOString() }).changes;
  }

  listCaptures(): CaptureSummary[] {
    const byId = new Map<number, CaptureSummary>();
    for (const r of this.sql.get('captures').all() as { id: number; started_at: string; finished_at: string | null; state: CrawlState; duration_ms: number }[]) {
      byId.set(r.id, {
        id: r.id,
        startedAt: r.started_at,
        finishedAt: r.finished_at,
        state: r.state,
        durationMs: r.duration_ms,
        counts: emptyOutcomeCounts(),
        bytesAdded: 0,
      });
    }
    for (const r of this.sql.get('outcomeCounts').all() as { capture_id: number; outcome: CaptureOutcome; n: number; added: number }[]) {
      const c = byId.get(r.capture_id);
      if (!c || !CAPTURE_OUTCOMES.includes(r.outcome)) continue;
      c.counts[OUTCOME_KEYS[r.outcome]] = r.n;
      c.bytesAdded += r.added;
    }
    return [...byId.values()];
  }

  capturesOf(url: string): UrlCapture[] {
    return (this.sql.get('capturesOf').all(url) as CaptureRow[]).map(toUrlCapture);
  }

  *iterateCapturePages(capture?: number): Generator<CapturePage> {
    yield* this.sql.get('pages').iterate({ capture: capture ?? null }) as Iterable<CapturePage>;
  }

  captureAtPath(localPath: string, capture: number): { url: string; capture: UrlCapture | null } | undefined {
    const found = this.sql.get('urlAtPath').get({ path: localPath }) as { id: number; url: string } | undefined;
    if (found === undefined) return undefined;
    const r = this.sql.get('nearestReadable').get(found.id, { capture }) as CaptureRow | undefined;
    return { url: found.url, capture: r ? toUrlCapture(r) : null };
  }

  changes(opts: { capture?: number; since?: number; offset?: number; limit?: number }): ChangeReport {
    const capture = opts.capture ?? this.current;
    const previous = opts.since ?? (capture > 1 ? capture - 1 : null);
    const limit = opts.limit ?? DEFAULT_LIST_LIMIT;
    const offset = opts.offset ?? 0;
    const report: ChangeReport = { capture, previous, counts: emptyOutcomeCounts(), new: [], restored: [], changed: [], markupOnly: [], removed: [] };
    const listed = (outcome: CaptureOutcome): string[] | null => {
      const key = OUTCOME_KEYS[outcome];
      return key === 'new' || key === 'restored' || key === 'changed' || key === 'markupOnly' || key === 'removed' ? report[key] : null;
    };
    if (previous === null || previous === capture - 1) {
      // The outcomes recorded while crawling are against the capture before.
      for (const r of this.sql.get('countsOf').all(capture) as { outcome: CaptureOutcome; n: number }[]) {
        if (CAPTURE_OUTCOMES.includes(r.outcome)) report.counts[OUTCOME_KEYS[r.outcome]] = r.n;
      }
      for (const outcome of CAPTURE_OUTCOMES) {
        const list = listed(outcome);
        if (list) list.push(...(this.sql.get('urlsWith').all(capture, outcome, limit, offset) as { url: string }[]).map((r) => r.url));
      }
      return report;
    }
    for (const r of this.sql.get('between').iterate({ capture, since: previous }) as Iterable<BetweenRow>) {
      const outcome = outcomeBetween(r);
      if (outcome === null) continue;
      const key = OUTCOME_KEYS[outcome];
      // The count before this URL is its place in its list.
      const place = report.counts[key]++;
      const list = listed(outcome);
      if (list && place >= offset && list.length < limit) list.push(r.url);
    }
    return report;
  }
}

interface BetweenRow {
  url: string;
  n_outcome: CaptureOutcome | null;
  n_status: number | null;
  n_digest: string | null;
  n_text: string | null;
  m_outcome: CaptureOutcome | null;
  m_status: number | null;
  m_digest: string | null;
  m_text: string | null;
}

/** A URL's outcome between two captures that need not be consecutive; null when it was in neither. */
function outcomeBetween(r: BetweenRow): CaptureOutcome | null {
  const then = r.m_outcome === null ? undefined : { outcome: r.m_outcome, httpStatus: r.m_status, payloadDigest: r.m_digest, textDigest: r.m_text };
  if (r.n_outcome === null || r.n_outcome === 'removed') return isPresent(then) ? 'removed' : null;
  if (r.n_outcome === 'failed' && r.n_status === null) return 'failed';
  return compareCapture(then, {
    httpStatus: r.n_status,
    payloadDigest: r.n_digest,
    textDigest: r.n_text,
    notModified: r.n_outcome === 'not-modified',
  });
}

function toUrlCapture(r: CaptureRow): UrlCapture {
  return {
    urlId: r.url_id,
    capture: r.capture_id,
    outcome: r.outcome,
    httpStatus: r.http_status,
    contentType: r.content_type,
    bytes: r.bytes,
    payloadDigest: r.payload_digest,
    textDigest: r.text_digest,
    localPath: r.local_path,
    etag: r.etag,
    lastModified: r.last_modified,
    record: r.warc_file !== null && r.warc_offset !== null && r.warc_length !== null ? { file: r.warc_file, offset: r.warc_offset, length: r.warc_length } : null,
    contentEncoding: r.content_encoding,
    fetchedAt: r.fetched_at,
    timing:
      r.requested_at !== null && r.headers_ms !== null && r.duration_ms !== null
        ? { requestedAt: r.requested_at, headersMs: r.headers_ms, durationMs: r.duration_ms }
        : null,
  };
}
