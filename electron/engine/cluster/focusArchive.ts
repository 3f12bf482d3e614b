import type pg from 'pg';
import type { Catalogue } from '../store/catalogue.js';
import { FocusStore, type TopicState } from '../store/focusStore.js';

/** Rows read from PostgreSQL at a time. */
const PAGE = 5_000;

interface PgFocusPage {
  url_id: string;
  relevance: number;
  topic_state: TopicState;
  duplicate_of: string | null;
  simhash: string;
  digest: string;
}

interface PgExtracted {
  url_id: string;
  url: string;
  capture: string;
  field: string;
  value: string;
  confidence: number;
}

/**
 * A focused cluster harvest's verdicts and extracted fields into the local archive's focus tables,
 * with PostgreSQL's URL ids turned into the archive's (`ids`), so `harvest list`, `harvest stats`,
 * `harvest extract` and the exporters read them as a local focused harvest's.
 */
export async function copyFocus(db: pg.Pool, c: Catalogue, ids: ReadonlyMap<string, number>): Promise<void> {
  const store = new FocusStore(c);
  const local = (id: string): number => {
    const mapped = ids.get(id);
    if (mapped === undefined) throw new Error(`focus row for URL id ${id}, which the harvest does not hold`);
    return mapped;
  };
  for (let after = '0'; ; ) {
    const rows = (await db.query<PgFocusPage>('SELECT * FROM focus_pages WHERE url_id > $1 ORDER BY url_id LIMIT $2', [after, PAGE])).rows;
    if (rows.length === 0) break;
    after = rows.at(-1)!.url_id;
    c.transaction(() => {
      for (const r of rows) {
        const duplicateOf = r.duplicate_of === null ? null : local(r.duplicate_of);
        store.putPage({ urlId: local(r.url_id), relevance: r.relevance, topicState: r.topic_state, duplicateOf, simhash: r.simhash, digest: r.digest });
      }
    });
  }
  for (let after = { id: '0', capture: '', field: '' }; ; ) {
    const rows = (
      await db.query<PgExtracted>(
        `SELECT e.url_id, u.url, e.capture, e.field, e.value, e.confidence FROM extracted e JOIN urls u ON u.id = e.url_id
         WHERE (e.url_id, e.capture, e.field) > ($1, $2, $3) ORDER BY e.url_id, e.capture, e.field LIMIT $4`,
        [after.id, after.capture, after.field, PAGE],
      )
    ).rows;
    if (rows.length === 0) break;
    const last = rows.at(-1)!;
    after = { id: last.url_id, capture: last.capture, field: last.field };
    c.transaction(() => {
      for (const r of rows) store.putExtracted(local(r.url_id), r.url, r.capture, [{ field: r.field, value: r.value, confidence: r.confidence }]);
    });
  }
}
