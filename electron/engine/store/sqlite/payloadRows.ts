import type Database from 'better-sqlite3';
import type { PayloadStore } from '../catalogueStore.js';
import type { PayloadCapture, StoredOriginal } from '../catalogueTypes.js';
import type { RecordPlace } from '../../warc/types.js';
import { Statements } from './database.js';
import type { SqliteMeta } from './metaRows.js';

/** meta key: `<end> <file>` for the WARC file being written (see WarcCheckpoints). */
const WARC_CHECKPOINT = 'warc_checkpoint';

const SQL = {
  putPackedOriginal: 'INSERT OR REPLACE INTO originals (url_id, content_type, body) VALUES (?, ?, ?)',
  dropPackedOriginal: 'DELETE FROM originals WHERE url_id = ?',
  getPackedOriginal: 'SELECT body FROM originals WHERE url_id = ?',
  putOriginalRecord:
    'INSERT OR REPLACE INTO original_records (url_id, file, offset, length, content_encoding) VALUES (?, ?, ?, ?, ?)',
  dropOriginalRecord: 'DELETE FROM original_records WHERE url_id = ?',
  getOriginalRecord: 'SELECT file, offset, length, content_encoding FROM original_records WHERE url_id = ?',
  captureByDigest: 'SELECT url, date, record_id, file, offset, length FROM payload_captures WHERE digest = ?',
  putCapture: 'INSERT OR IGNORE INTO payload_captures (digest, url, date, record_id, file, offset, length) VALUES (?, ?, ?, ?, ?, ?, ?)',
} as const;

/** The WARC bookkeeping in SQLite: payloads' first captures, documents' originals, the writer's checkpoint. */
export class SqlitePayloadRows implements PayloadStore {
  private readonly sql: Statements<keyof typeof SQL>;

  constructor(
    db: Database.Database,
    private readonly meta: SqliteMeta,
  ) {
    this.sql = new Statements(db, SQL);
  }

  warcCheckpoint(file: string): number | null {
    const saved = this.meta.getMeta(WARC_CHECKPOINT);
    const space = saved?.indexOf(' ') ?? -1;
    if (saved == null || space < 0 || saved.slice(space + 1) !== file) return null;
    const end = Number(saved.slice(0, space));
    return Number.isSafeInteger(end) ? end : null;
  }

  /** Only the file being written needs one, so each replaces the last. */
  setWarcCheckpoint(file: string, end: number): void {
    this.meta.setMeta(WARC_CHECKPOINT, `${end} ${file}`);
  }

  putOriginal(urlId: number, contentType: string | null, original: StoredOriginal): void {
    if ('packed' in original) {
      this.sql.get('dropOriginalRecord').run(urlId);
      this.sql.get('putPackedOriginal').run(urlId, contentType, original.packed);
    } else {
      this.sql.get('dropPackedOriginal').run(urlId);
      const { file, offset, length } = original.record;
      this.sql.get('putOriginalRecord').run(urlId, file, offset, length, original.contentEncoding);
    }
  }

  getOriginal(urlId: number): StoredOriginal | undefined {
    const record = this.sql.get('getOriginalRecord').get(urlId) as (RecordPlace & { content_encoding: string | null }) | undefined;
    if (record) return { record: { file: record.file, offset: record.offset, length: record.length }, contentEncoding: record.content_encoding };
    const packed = this.sql.get('getPackedOriginal').get(urlId) as { body: Buffer } | undefined;
    return packed && { packed: packed.body };
  }

  captureByDigest(digest: string): PayloadCapture | null {
    const r = this.sql.get('captureByDigest').get(digest) as
      | { url: string; date: string; record_id: string; file: string | null; offset: number | null; length: number | null }
      | undefined;
    if (!r) return null;
    const capture: PayloadCapture = { url: r.url, date: new Date(r.date), recordId: r.record_id };
    if (r.file !== null && r.offset !== null && r.length !== null) capture.place = { file: r.file, offset: r.offset, length: r.length };
    return capture;
  }

  putCapture(digest: string, capture: PayloadCapture): void {
    const { file = null, offset = null, length = null } = capture.place ?? {};
    this.sql.get('putCapture').run(digest, capture.url, capture.date.toISOString(), capture.recordId, file, offset, length);
  }
}
