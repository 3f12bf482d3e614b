import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ArchiveFormatError, ArchiveInUseError } from '../catalogueTypes.js';
import { isBusy } from './database.js';

/** How long taking the lock waits for it (see take). */
const PROBE_WAIT_MS = 1_000;

/** The file beside a catalogue that its one writer holds locked. */
export function writerLockFile(catalogue: string): string {
  return `${catalogue}-lock`;
}

/**
 * One writer per archive, any number of readers: the writer holds an exclusive SQLite lock on a
 * small file of its own beside the catalogue, while the catalogue is opened in SQLite's normal
 * locking mode (WAL, with its shared-memory index), which read-only connections can read while the
 * crawl writes. The lock is a file lock the OS drops when the process dies, so a killed crawl
 * never blocks its own resume. SQLite takes it (not Node's fs): it knows every connection of the
 * process to the file, so checking it from the process that holds it does not release it.
 */
export class WriterLock {
  private constructor(private readonly db: Database.Database) {}

  /**
   * Takes the lock of the catalogue in `catalogue`; ArchiveInUseError when another connection holds
   * it. It waits out a reader asking isHeld, whose read holds a shared lock on the file for
   * microseconds; a writer holds it for as long as it writes, past this wait.
   */
  static take(catalogue: string): WriterLock {
    const file = writerLockFile(catalogue);
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: PROBE_WAIT_MS });
    } catch (e) {
      throw new ArchiveFormatError(`cannot open ${file}, which marks the archive as being written: ${(e as Error).message}`);
    }
    try {
      // Holding the lock writes nothing: no journal file beside it.
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE');
    } catch (e) {
      db.close();
      if (isBusy(e)) throw new ArchiveInUseError(catalogue);
      throw new ArchiveFormatError(`cannot lock ${file}, which marks the archive as being written: ${(e as Error).message}`);
    }
    return new WriterLock(db);
  }

  /** Whether a connection holds the lock of the catalogue in `catalogue` now; the file is not created. */
  static isHeld(catalogue: string): boolean {
    const file = writerLockFile(catalogue);
    if (!existsSync(file)) return false;
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    } catch {
      return false;
    }
    try {
      // A read needs the shared lock that the writer's exclusive one keeps out.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return false;
    } catch (e) {
      return isBusy(e);
    } finally {
      db.close();
    }
  }

  release(): void {
    if (!this.db.open) return;
    this.db.exec('ROLLBACK');
    this.db.close();
  }
}
