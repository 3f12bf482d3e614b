import type Database from 'better-sqlite3';
import type { QaCopyResult, QaMissing, QaPageResult, QaReference } from '../../../shared/qa.js';

/**
 * The analysis's results in the archive's catalogue, one row per page and capture: a second run
 * skips pages already analysed (it resumes), and a fresh one replaces them.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS qa_pages (
  capture INTEGER NOT NULL,
  url TEXT NOT NULL,
  analysed_at TEXT NOT NULL,
  text_match REAL,
  screenshot_match REAL,
  missing TEXT NOT NULL,
  dead_links TEXT NOT NULL,
  error TEXT,
  copies TEXT,
  reference TEXT,
  PRIMARY KEY (capture, url)
)`;

/**
 * Columns added since the table first shipped, added to an archive analysed before: each copy's
 * figures (JSON; null in older rows, which compared the mirror alone) and the reference used.
 */
const ADDED_COLUMNS = { copies: 'TEXT', reference: 'TEXT' } as const;

interface Row {
  capture: number;
  url: string;
  analysed_at: string;
  text_match: number | null;
  screenshot_match: number | null;
  missing: string;
  dead_links: string;
  error: string | null;
  copies?: string | null;
  reference?: string | null;
}

function toResult(r: Row): QaPageResult {
  return {
    url: r.url,
    capture: r.capture,
    analysedAt: r.analysed_at,
    reference: (r.reference ?? 'live') as QaReference,
    copies: r.copies
      ? (JSON.parse(r.copies) as QaPageResult['copies'])
      : { mirror: { textMatch: r.text_match, screenshotMatch: r.screenshot_match, missing: JSON.parse(r.missing) as QaMissing[], error: r.error } satisfies QaCopyResult },
    textMatch: r.text_match,
    screenshotMatch: r.screenshot_match,
    missing: JSON.parse(r.missing) as QaMissing[],
    deadLinks: JSON.parse(r.dead_links) as string[],
    error: r.error,
  };
}

/** Worst first: pages that could not be compared, then by the lower of their two matches. */
const WORST_FIRST = `ORDER BY (CASE WHEN text_match IS NULL OR screenshot_match IS NULL THEN -1 ELSE MIN(text_match, screenshot_match) END), url`;

export class QaStore {
  constructor(private readonly db: Database.Database) {}

  /** The table exists only in archives that were analysed: readers must not create it. */
  private get exists(): boolean {
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'qa_pages'`).get() !== undefined;
  }

  prepare(): void {
    this.db.exec(SCHEMA);
    const have = new Set((this.db.prepare('PRAGMA table_info(qa_pages)').all() as { name: string }[]).map((c) => c.name));
    for (const [name, type] of Object.entries(ADDED_COLUMNS)) if (!have.has(name)) this.db.exec(`ALTER TABLE qa_pages ADD COLUMN ${name} ${type}`);
  }

  /** Pages of a capture with a result. */
  count(capture: number): number {
    if (!this.exists) return 0;
    return (this.db.prepare('SELECT COUNT(*) AS n FROM qa_pages WHERE capture = ?').get(capture) as { n: number }).n;
  }

  has(capture: number, url: string): boolean {
    return this.exists && this.db.prepare('SELECT 1 FROM qa_pages WHERE capture = ? AND url = ?').get(capture, url) !== undefined;
  }

  /**
   * A capture's figures, counted by SQLite rather than read into memory: pages with a result, those
   * that could not be compared, those lacking some resource, and the scores' histogram in tenths
   * (a page's score is qaScore's, the lower of its two matches; 1.0 counts in the top tenth).
   */
  figures(capture: number): { analysed: number; errors: number; withMissing: number; histogram: number[] } {
    const histogram = new Array<number>(10).fill(0);
    if (!this.exists) return { analysed: 0, errors: 0, withMissing: 0, histogram };
    const counts = this.db
      .prepare(`SELECT COUNT(*) AS analysed, COUNT(error) AS errors, SUM(missing <> '[]') AS withMissing FROM qa_pages WHERE capture = ?`)
      .get(capture) as { analysed: number; errors: number; withMissing: number | null };
    const tenths = this.db
      .prepare(
        `SELECT MIN(9, CAST(MIN(text_match, screenshot_match) * 10 AS INTEGER)) AS tenth, COUNT(*) AS n FROM qa_pages
         WHERE capture = ? AND text_match IS NOT NULL AND screenshot_match IS NOT NULL GROUP BY tenth`,
      )
      .all(capture) as { tenth: number; n: number }[];
    for (const t of tenths) histogram[t.tenth] = t.n;
    return { analysed: counts.analysed, errors: counts.errors, withMissing: counts.withMissing ?? 0, histogram };
  }

  clear(capture: number): void {
    if (this.exists) this.db.prepare('DELETE FROM qa_pages WHERE capture = ?').run(capture);
  }

  put(r: QaPageResult): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO qa_pages (capture, url, analysed_at, text_match, screenshot_match, missing, dead_links, error, copies, reference)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.capture, r.url, r.analysedAt, r.textMatch, r.screenshotMatch, JSON.stringify(r.missing), JSON.stringify(r.deadLinks), r.error, JSON.stringify(r.copies), r.reference);
  }

  /** A capture's results, worst first; `limit` null: all. */
  results(capture: number, limit: number | null = null): QaPageResult[] {
    if (!this.exists) return [];
    const rows = this.db.prepare(`SELECT * FROM qa_pages WHERE capture = ? ${WORST_FIRST} LIMIT ?`).all(capture, limit ?? -1) as Row[];
    return rows.map(toResult);
  }

  /** A page of a capture's results, worst first, and how many there are in all. */
  page(capture: number, offset: number, limit: number): { total: number; rows: QaPageResult[] } {
    if (!this.exists) return { total: 0, rows: [] };
    const total = (this.db.prepare('SELECT COUNT(*) AS n FROM qa_pages WHERE capture = ?').get(capture) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM qa_pages WHERE capture = ? ${WORST_FIRST} LIMIT ? OFFSET ?`).all(capture, limit, offset) as Row[];
    return { total, rows: rows.map(toResult) };
  }

  /** One page's result in a capture, or null. */
  result(capture: number, url: string): QaPageResult | null {
    if (!this.exists) return null;
    const row = this.db.prepare('SELECT * FROM qa_pages WHERE capture = ? AND url = ?').get(capture, url) as Row | undefined;
    return row === undefined ? null : toResult(row);
  }

  /** Captures with results, newest first. */
  captures(): number[] {
    if (!this.exists) return [];
    return (this.db.prepare('SELECT DISTINCT capture FROM qa_pages ORDER BY capture DESC').all() as { capture: number }[]).map((r) => r.capture);
  }
}
