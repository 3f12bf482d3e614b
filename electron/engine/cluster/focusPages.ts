import type pg from 'pg';
import { harvestRateOf, type FocusCounts, type FocusPageRow, type TopicState } from '../store/focusStore.js';
import type { ExtractedValue } from '../focus/extract.js';

/**
 * A focused cluster harvest's tables in PostgreSQL, as the local catalogue's focus tables
 * (store/focusStore.ts): each judged page's verdict (focus_pages) and the fields extracted from final
 * pages (extracted), plus `seq`, the order pages were committed in, so a worker reads only the pages
 * committed since it last looked. Rows are written only under FOCUS_LOCK, held to the end of the
 * committing transaction, so seq order is commit order: a reader of `seq > n` never finds a later
 * commit's rows without an earlier one's.
 */
export const FOCUS_TABLES = `
-- Best-first order within a site: highest score, then discovery.
CREATE INDEX urls_best ON urls (site, score DESC NULLS LAST, id) WHERE state = 'queued';
CREATE TABLE focus_pages (
  url_id bigint PRIMARY KEY REFERENCES urls (id),
  seq bigserial NOT NULL,
  relevance double precision NOT NULL,
  topic_state text NOT NULL CHECK (topic_state IN ('relevant', 'off-topic', 'near-duplicate')),
  duplicate_of bigint REFERENCES urls (id),
  simhash text NOT NULL,
  digest text NOT NULL
);
CREATE INDEX focus_pages_seq ON focus_pages (seq);
CREATE TABLE extracted (
  url_id bigint NOT NULL REFERENCES urls (id),
  capture text NOT NULL,
  field text NOT NULL,
  value text NOT NULL,
  confidence double precision NOT NULL,
  PRIMARY KEY (url_id, capture, field)
);
`;

/** The transaction-level advisory lock under which focus_pages rows are written (one harvest per database). */
const FOCUS_LOCK = 0x66_6f_63_75;

export async function lockFocus(c: pg.PoolClient): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock($1)', [FOCUS_LOCK]);
}

export interface CommittedOriginal {
  seq: number;
  urlId: number;
  simhash: string;
  digest: string;
}

/** Pages committed as originals (not near-duplicates) after `seq`, in commit order. */
export async function originalsSince(db: pg.Pool | pg.PoolClient, seq: number): Promise<CommittedOriginal[]> {
  const r = await db.query<{ seq: string; url_id: string; simhash: string; digest: string }>(
    `SELECT seq, url_id, simhash, digest FROM focus_pages WHERE seq > $1 AND topic_state <> 'near-duplicate' ORDER BY seq`,
    [seq],
  );
  return r.rows.map((x) => ({ seq: Number(x.seq), urlId: Number(x.url_id), simhash: x.simhash, digest: x.digest }));
}

export interface FocusPageWrite extends FocusPageRow {
  /** Extracted from the page (a final page that is not a near-duplicate); empty otherwise. */
  fields: ExtractedValue[];
  capture: string;
}

/** Writes pages' verdicts and fields in the caller's transaction, which holds the lock. */
export async function putFocusPages(c: pg.PoolClient, pages: FocusPageWrite[]): Promise<void> {
  if (pages.length === 0) return;
  const col = <T>(f: (p: FocusPageWrite) => T) => pages.map(f);
  await c.query(
    `INSERT INTO focus_pages (url_id, relevance, topic_state, duplicate_of, simhash, digest)
     SELECT * FROM unnest($1::bigint[], $2::float8[], $3::text[], $4::bigint[], $5::text[], $6::text[])
     ON CONFLICT (url_id) DO NOTHING`,
    [col((p) => p.urlId), col((p) => p.relevance), col((p) => p.topicState), col((p) => p.duplicateOf), col((p) => p.simhash), col((p) => p.digest)],
  );
  const fields = pages.flatMap((p) => p.fields.map((f) => ({ urlId: p.urlId, capture: p.capture, ...f })));
  if (fields.length === 0) return;
  await c.query(
    `INSERT INTO extracted (url_id, capture, field, value, confidence)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::float8[]) ON CONFLICT DO NOTHING`,
    [fields.map((f) => f.urlId), fields.map((f) => f.capture), fields.map((f) => f.field), fields.map((f) => f.value), fields.map((f) => f.confidence)],
  );
}

/** The harvest's focus counts, as a local harvest's progress shows them. */
export async function focusCounts(db: pg.Pool): Promise<FocusCounts> {
  const c = { relevantPages: 0, offTopicPages: 0, nearDuplicates: 0 };
  for (const r of (await db.query<{ s: TopicState; n: string }>('SELECT topic_state AS s, count(*) AS n FROM focus_pages GROUP BY topic_state')).rows) {
    if (r.s === 'relevant') c.relevantPages = Number(r.n);
    else if (r.s === 'off-topic') c.offTopicPages = Number(r.n);
    else c.nearDuplicates = Number(r.n);
  }
  return { ...c, harvestRate: harvestRateOf(c) };
}
