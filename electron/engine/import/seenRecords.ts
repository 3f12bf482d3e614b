import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RecordFacts } from './recordFacts.js';

/**
 * The records an archive's imports have taken, so that one met again is stored once: the same
 * record (its WARC-Record-ID: a file given twice, a WACZ of a WARC given too), or the same capture
 * from another file (see captureIdentity: a WARC written again by another tool). Two records of one
 * file with ids of their own are both kept, however alike: the tool wrote both (wget fetching a
 * redirect loop's URL twice in a second). Kept in the catalogue, in the transaction that catalogues
 * the record: what a rolled-back batch took is forgotten with it.
 */
export class SeenRecords {
  private readonly find: Database.Statement<[Buffer]>;
  private readonly insert: Database.Statement<[Buffer, string]>;

  constructor(db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS import_seen (identity BLOB PRIMARY KEY, source TEXT NOT NULL) WITHOUT ROWID');
    this.find = db.prepare('SELECT source FROM import_seen WHERE identity = ?');
    this.insert = db.prepare('INSERT OR IGNORE INTO import_seen (identity, source) VALUES (?, ?)');
  }

  /** Notes the record, read from `source` (a file); false when it was taken before. */
  firstTime(f: RecordFacts, content: Buffer, source: string): boolean {
    const id = f.recordId === null ? null : hash('id', f.recordId);
    if (id !== null && this.find.get(id) !== undefined) return false;
    const capture = captureIdentity(f, content);
    const before = this.find.get(capture) as { source: string } | undefined;
    if (before !== undefined && before.source !== source) return false;
    if (id !== null) this.insert.run(id, source);
    this.insert.run(capture, source);
    return true;
  }
}

/**
 * What makes two records the same capture: their type, target URI, date (to the millisecond, as
 * writers differ in precision) and payload digest; a record that declares no payload digest (a
 * request, metadata or warcinfo record) is the same only byte for byte.
 */
export function captureIdentity(f: RecordFacts, content: Buffer): Buffer {
  if (f.payloadDigest !== null) return hash('capture', f.type, f.uri ?? '', String(f.date?.getTime() ?? ''), f.payloadDigest);
  return createHash('sha256').update('bytes\0').update(content).digest().subarray(0, 16);
}

function hash(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\0')).digest().subarray(0, 16);
}
