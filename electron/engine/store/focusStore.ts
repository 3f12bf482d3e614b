import type Database from 'better-sqlite3';
import type { FocusCounts } from '../../../shared/crawl.js';
import type { ExtractedRecord } from '../../../shared/extracted.js';
import { similarityOf } from '../focus/simhash.js';
import type { Catalogue } from './catalogue.js';

/** What a focused harvest judged a page. */
export type TopicState = 'relevant' | 'off-topic' | 'near-duplicate';

export interface FocusPageRow {
  urlId: number;
  relevance: number;
  topicState: TopicState;
  /** The URL id of the page it repeats. */
  duplicateOf: number | null;
  simhash: string;
  digest: string;
}

export interface ExtractedRow {
  url: string;
  capture: string;
  /** The URL of the page it repeats, for a near-duplicate's row. */
  duplicateOf: string | null;
  field: string;
  value: string;
  confidence: number;
}

export type { FocusCounts };

/** One URL's focus columns for `harvest list`. */
export interface FocusOfUrl {
  relevance: number | null;
  topicState: TopicState | null;
  duplicateOf: string | null;
  /** Of a near-duplicate and its original: 1 for the same main content, else the share of SimHash bits they agree on. */
  similarity: number | null;
}

export function harvestRateOf(c: Omit<FocusCounts, 'harvestRate'>): number | null {
  const judged = c.relevantPages + c.offTopicPages + c.nearDuplicates;
  return judged === 0 ? null : c.relevantPages / judged;
}

/**
 * A focused harvest's tables in the catalogue: each page's relevance and verdict (focus_pages) and
 * the fields extracted from final pages (extracted). Archives written before focused harvests have
 * neither; a read-only open of one reads as empty.
 */
export class FocusStore {
  private readonly db: Database.Database;
  private readonly present: boolean;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(catalogue: Catalogue) {
    this.db = catalogue.sqlite;
    this.present = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'focus_pages'").get() !== undefined;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  putPage(p: FocusPageRow): void {
    this.stmt(
      `INSERT OR REPLACE INTO focus_pages (url_id, relevance, topic_state, duplicate_of, simhash, digest) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(p.urlId, p.relevance, p.topicState, p.duplicateOf, p.simhash, p.digest);
  }

  /** What the page was judged when last fetched; null if never. */
  stateOf(urlId: number): TopicState | null {
    const r = this.stmt('SELECT topic_state AS s FROM focus_pages WHERE url_id = ?').get(urlId) as { s: TopicState } | undefined;
    return r?.s ?? null;
  }

  /** Every judged page that is not itself a duplicate, for the duplicate indexes of a resumed crawl. */
  *originals(): Generator<{ urlId: number; simhash: string; digest: string }> {
    if (!this.present) return;
    yield* this.db
      .prepare("SELECT url_id AS urlId, simhash, digest FROM focus_pages WHERE topic_state != 'near-duplicate' ORDER BY url_id")
      .iterate() as Iterable<{ urlId: number; simhash: string; digest: string }>;
  }

  /** Marks a page flagged a near-duplicate as none (a false flag); false if it is not flagged one. */
  markDistinct(urlId: number): boolean {
    if (this.stateOf(urlId) !== 'near-duplicate') return false;
    this.stmt('INSERT OR IGNORE INTO focus_distinct (url_id) VALUES (?)').run(urlId);
    return true;
  }

  /** Takes back markDistinct: the next run judges the page as before; false if it was not marked. */
  unmarkDistinct(urlId: number): boolean {
    if (!this.present) return false;
    return this.stmt('DELETE FROM focus_distinct WHERE url_id = ?').run(urlId).changes > 0;
  }

  /** The pages marked as no near-duplicate. */
  distinct(): number[] {
    if (!this.present) return [];
    return (this.db.prepare('SELECT url_id AS id FROM focus_distinct').all() as { id: number }[]).map((r) => r.id);
  }

  /** Seeds (depth-0 URLs admitted as seeds) from which a relevant page was reached, by the tree of first discoveries. */
  productiveSeeds(): Set<string> {
    if (!this.present) return new Set();
    const rows = this.db
      .prepare(
        `WITH RECURSIVE tree(id, root) AS (
           SELECT id, id FROM urls WHERE via = 'seed'
           UNION ALL
           SELECT u.id, tree.root FROM urls u JOIN tree ON u.parent_id = tree.id
         )
         SELECT DISTINCT s.url FROM tree JOIN focus_pages f ON f.url_id = tree.id AND f.topic_state = 'relevant'
         JOIN urls s ON s.id = tree.root`,
      )
      .all() as { url: string }[];
    return new Set(rows.map((r) => r.url));
  }

  putExtracted(urlId: number, url: string, capture: string, values: { field: string; value: string; confidence: number }[]): void {
    const put = this.stmt('INSERT OR REPLACE INTO extracted (url_id, url, capture, field, value, confidence) VALUES (?, ?, ?, ?, ?, ?)');
    for (const v of values) put.run(urlId, url, capture, v.field, v.value, v.confidence);
  }

  counts(): FocusCounts {
    const c = { relevantPages: 0, offTopicPages: 0, nearDuplicates: 0 };
    if (this.present) {
      for (const r of this.db.prepare('SELECT topic_state AS s, COUNT(*) AS n FROM focus_pages GROUP BY topic_state').all() as { s: TopicState; n: number }[]) {
        if (r.s === 'relevant') c.relevantPages = r.n;
        else if (r.s === 'off-topic') c.offTopicPages = r.n;
        else c.nearDuplicates = r.n;
      }
    }
    return { ...c, harvestRate: harvestRateOf(c) };
  }

  /**
   * The focus columns of every URL in discovery order (the order of Catalogue.iterateRecords), all
   * null for URLs that were not judged; null when the archive has no focus tables.
   */
  iterateInUrlOrder(): Generator<FocusOfUrl> | null {
    if (!this.present) return null;
    const rows = this.db
      .prepare(
        `SELECT f.relevance, f.topic_state AS topicState, d.url AS duplicateOf, f.simhash, f.digest, o.simhash AS originalHash, o.digest AS originalDigest
         FROM urls u LEFT JOIN focus_pages f ON f.url_id = u.id LEFT JOIN urls d ON d.id = f.duplicate_of
         LEFT JOIN focus_pages o ON o.url_id = f.duplicate_of ORDER BY u.id`,
      )
      .iterate() as Iterable<Omit<FocusOfUrl, 'similarity'> & { simhash: string | null; digest: string | null; originalHash: string | null; originalDigest: string | null }>;
    return (function* () {
      for (const { simhash, digest, originalHash, originalDigest, ...r } of rows) {
        const similarity = simhash !== null && digest !== null && originalHash !== null && originalDigest !== null ? similarityOf(simhash, digest, originalHash, originalDigest) : null;
        yield { ...r, similarity };
      }
    })();
  }

  /** Each near-duplicate with its original, their similarity and whether a person marked the flag false, by original, then copy. */
  *nearDuplicatePairs(): Generator<{ original: string; url: string; similarity: number; notDuplicate: boolean }> {
    if (!this.present) return;
    const distinct = new Set(this.distinct());
    const rows = this.db
      .prepare(
        `SELECT o.url AS original, u.url, f.url_id AS urlId, f.simhash, f.digest, of.simhash AS originalHash, of.digest AS originalDigest
         FROM focus_pages f JOIN urls u ON u.id = f.url_id JOIN urls o ON o.id = f.duplicate_of JOIN focus_pages of ON of.url_id = f.duplicate_of
         WHERE f.topic_state = 'near-duplicate' ORDER BY f.duplicate_of, f.url_id`,
      )
      .iterate() as Iterable<{ original: string; url: string; urlId: number; simhash: string; digest: string; originalHash: string; originalDigest: string }>;
    for (const r of rows)
      yield { original: r.original, url: r.url, similarity: similarityOf(r.simhash, r.digest, r.originalHash, r.originalDigest), notDuplicate: distinct.has(r.urlId) };
  }

  /** Extracted values in page order, then capture, then field. */
  *iterateExtracted(): Generator<ExtractedRow> {
    if (!this.present) return;
    yield* this.db
      .prepare(
        `SELECT e.url, e.capture, d.url AS duplicateOf, e.field, e.value, e.confidence FROM extracted e
         LEFT JOIN focus_pages f ON f.url_id = e.url_id LEFT JOIN urls d ON d.id = f.duplicate_of ORDER BY e.url_id, e.capture, e.field`,
      )
      .iterate() as Iterable<ExtractedRow>;
  }

  /** One record per page capture (values ordered by page, then capture), as `harvest extract` and the app show them. */
  *iterateRecords(): Generator<ExtractedRecord> {
    let current: ExtractedRecord | null = null;
    for (const r of this.iterateExtracted()) {
      if (current === null || current.url !== r.url || current.capture !== r.capture) {
        if (current !== null) yield current;
        current = { url: r.url, capture: r.capture, duplicateOf: r.duplicateOf, fields: {} };
      }
      current.fields[r.field] = { value: r.value, confidence: r.confidence };
    }
    if (current !== null) yield current;
  }

  /** The columns of the records: the template's fields in its order, then any other field extracted. */
  columns(declared: readonly string[]): string[] {
    return [...declared, ...this.fieldNames().filter((f) => !declared.includes(f))];
  }

  /** Field names in the order they were first extracted. */
  fieldNames(): string[] {
    if (!this.present) return [];
    return (this.db.prepare('SELECT field FROM extracted GROUP BY field ORDER BY MIN(rowid)').all() as { field: string }[]).map((r) => r.field);
  }
}
