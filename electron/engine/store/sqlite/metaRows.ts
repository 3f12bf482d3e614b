import type Database from 'better-sqlite3';
import type { RobotsStore } from '../catalogueStore.js';
import type { RobotsRow } from '../catalogueTypes.js';
import { Statements } from './database.js';

const SQL = {
  getMeta: 'SELECT value FROM meta WHERE key = ?',
  setMeta: 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  deleteMeta: 'DELETE FROM meta WHERE key = ?',
  getRobots: 'SELECT http_status, body, error FROM robots WHERE site = ?',
  putRobots: 'INSERT OR REPLACE INTO robots (site, http_status, body, error, fetched_at) VALUES (?, ?, ?, ?, ?)',
} as const;

/** The archive's key-value facts (job, state, times, metadata) and robots.txt as fetched per site. */
export class SqliteMeta implements RobotsStore {
  private readonly sql: Statements<keyof typeof SQL>;

  constructor(db: Database.Database) {
    this.sql = new Statements(db, SQL);
  }

  getMeta(key: string): string | null {
    const r = this.sql.get('getMeta').get(key) as { value: string } | undefined;
    return r ? r.value : null;
  }

  setMeta(key: string, value: string): void {
    this.sql.get('setMeta').run(key, value);
  }

  deleteMeta(key: string): void {
    this.sql.get('deleteMeta').run(key);
  }

  getRobots(site: string): RobotsRow | undefined {
    return this.sql.get('getRobots').get(site) as RobotsRow | undefined;
  }

  putRobots(site: string, r: RobotsRow): void {
    this.sql.get('putRobots').run(site, r.http_status, r.body, r.error, new Date().toISOString());
  }
}
