import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RecordFacts } from './recordFacts.js';

/**
 * The records an archive's imports have taken, by the identity of their content, so that a record
 * met again (an overlapping WARC and WACZ, a file given twice) is stored once. Kept in the catalogue,
 * in the transaction that catalogues the record: what a rolled-back batch took is forgotten with it.
 */
export class SeenRecords {
  private readonly insert: Database.Statement<[Buffer]>;

  constructor(db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS import_seen (identity BLOB PRIMARY KEY) WITHOUT ROWID');
    this.insert = db.prepare('INSERT OR IGNORE INTO import_seen (identity) VALUES (?)');
  }

  /** Notes the record; false when a record of the same identity was noted before. */
  firstTime(f: RecordFacts, content: Buffer): boolean {
    return this.insert.run(recordIdentity(f, content)).changes > 0;
  }
}

/**
 * What makes two records the same capture: their type, target URI, date (to the millisecond, as
 * writers differ in precision) and payload digest; a record that declares no payload digest (a
 * request, metadata or warcinfo record) is the same only byte for byte.
 */
export function recordIdentity(f: RecordFacts, content: Buffer): Buffer {
  const hash = createHash('sha256');
  if (f.payloadDigest !== null) hash.update(['payload', f.type, f.uri ?? '', String(f.date?.getTime() ?? ''), f.payloadDigest].join('\0'));
  else hash.update('bytes\0').update(content);
  return hash.digest().subarray(0, 16);
}
