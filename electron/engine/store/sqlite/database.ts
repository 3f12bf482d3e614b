import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ArchiveFormatError, ArchiveInUseError, CatalogueDamagedError } from '../catalogueTypes.js';
import { ADDED_COLUMNS, SCHEMA_INDEXES_SQL, SCHEMA_SQL, SCHEMA_UPGRADES, SCHEMA_VERSION } from '../schema.js';

/**
 * How long a connection waits for a lock another holds before SQLITE_BUSY: a reader opening while
 * the writer switches the file into or out of WAL, the writer waiting on a reader to switch it.
 * Each holds such a lock for milliseconds; that one writer at a time is the writer lock's job
 * (writerLock.ts), not this wait's.
 */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a catalogue file in WAL mode, which read-only connections can read while one writer writes
 * (the caller holds the archive's writer lock when writing: see writerLock.ts); the schema created
 * or upgraded to this version. A read-only open changes nothing.
 */
export function openDatabase(file: string, opts: { readonly?: boolean; writerChecked?: boolean } = {}): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false, timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  try {
    if (!opts.readonly) checkPages(db, file);
    else if (!opts.writerChecked) checkPagesOnce(db, file);
    if (!opts.readonly) {
      // Normal locking: WAL keeps its index in shared memory (the -shm file), where readers in other
      // processes find the commits that are still in the log.
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode: a commit survives a killed process; only power loss can cost the last few.
      db.pragma('synchronous = NORMAL');
      // A checkpoint fsyncs and blocks; a crawl runs its own (checkpoint()) at moments that suit
      // it. This is the backstop: 16,384 pages bounds the WAL file at 64 MB and its index at ~0.5 MB.
      db.pragma('wal_autocheckpoint = 16384');
      // IMMEDIATE: the write lock taken first, waiting as long as the busy timeout; a transaction that
      // reads first can be refused at once when it comes to write.
      db.transaction(() => {
        db.exec(SCHEMA_SQL);
        const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
        const version = v ? Number(v.value) : SCHEMA_VERSION;
        if (version !== SCHEMA_VERSION && SCHEMA_UPGRADES[version] === undefined) {
          throw new ArchiveFormatError(`archive schema version ${v!.value} is not supported (expected ${SCHEMA_VERSION})`);
        }
        for (let from = version; from < SCHEMA_VERSION; from++) db.exec(SCHEMA_UPGRADES[from]!);
        for (const { table, column, sql } of ADDED_COLUMNS) {
          if (!hasColumn(db, table, column)) db.exec(sql);
        }
        db.exec(SCHEMA_INDEXES_SQL);
        db.prepare(
          "INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        ).run(String(SCHEMA_VERSION));
      }).immediate();
    } else {
      db.prepare('SELECT 1 FROM meta LIMIT 1').get();
    }
  } catch (e) {
    db.close();
    if (isBusy(e)) throw new ArchiveInUseError(file);
    if (e instanceof ArchiveFormatError) throw e;
    if (isCorrupt(e)) throw new CatalogueDamagedError(file, (e as Error).message);
    if (opts.readonly && needsSideFiles(e) && !writableFolder(file)) return openInMemory(file);
    const full = fullDisk(file, e);
    if (full) throw new ArchiveFormatError(full);
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  return db;
}

/**
 * Closes a catalogue opened for writing, leaving no write-ahead log: the log copied into the file
 * and the file switched back to a rollback journal, so that the archive, copied alone to read-only
 * storage or read on a full disk, opens without SQLite creating its -wal and -shm files (a file in
 * WAL mode can't be read without them). The next open for writing switches to WAL again. Where
 * this fails (a full disk, or a reader still has the file open) the log stays, and is recovered by
 * the next open.
 */
export function closeDatabase(db: Database.Database): void {
  if (!db.open) return;
  if (!db.readonly) {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.pragma('journal_mode = DELETE');
    } catch {
      // Left in WAL mode: nothing is lost, see above.
    }
  }
  db.close();
}

/** SQLite wanted to make or write its -wal or -shm file beside the catalogue (a WAL-mode file, read). */
function needsSideFiles(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR');
}

function writableFolder(file: string): boolean {
  try {
    accessSync(path.dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A catalogue in WAL mode (made before closeDatabase, or by a crawl that was killed) in a folder that
 * can't be written: read into memory, marked as a rollback-journal file there, so nothing needs to
 * be created beside it. A write-ahead log beside it holds commits the file lacks, and can't be
 * read without writing: then the archive must be copied somewhere writable first.
 */
function openInMemory(file: string): Database.Database {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new ArchiveFormatError(
      `cannot open catalogue ${file}: its write-ahead log ${wal} can't be read where the folder is read-only; copy the archive to writable storage and open it there`,
    );
  }
  const bytes = readFileSync(file);
  // The file format's read and write versions: 2 is WAL, 1 a rollback journal.
  if (bytes.length >= 100) bytes[18] = bytes[19] = 1;
  let db: Database.Database;
  try {
    db = new Database(bytes, { readonly: true });
  } catch (e) {
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  try {
    checkPagesOnce(db, file);
    db.prepare('SELECT 1 FROM meta LIMIT 1').get();
  } catch (e) {
    db.close();
    if (e instanceof ArchiveFormatError) throw e;
    if (isCorrupt(e)) throw new CatalogueDamagedError(file, (e as Error).message);
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  return db;
}

/**
 * The message for an open that failed because the disk holding the catalogue is full (SQLite says
 * "disk I/O error" when it can't size its -shm file, which reads as damage); null otherwise.
 */
function fullDisk(file: string, e: unknown): string | null {
  const code = (e as { code?: string }).code ?? '';
  if (!code.startsWith('SQLITE_IOERR') && !code.startsWith('SQLITE_FULL')) return null;
  let free: number;
  try {
    const fs = statfsSync(path.dirname(file));
    free = fs.bavail * fs.bsize;
  } catch {
    return null;
  }
  // SQLite's shared-memory file takes 32 KB at a time.
  if (free >= 64 * 1024) return null;
  return `cannot open catalogue ${file}: the disk holding it is full (${free} bytes free), and SQLite needs room beside it to read it; the catalogue is not damaged: free some space and try again`;
}

/**
 * SQLite's quick_check (every page's structure, without comparing indexes to their tables): a
 * damaged page is reported when the archive is opened, by name, rather than as a stack trace from
 * whichever query first reads it.
 */
function checkPages(db: Database.Database, file: string): void {
  const rows = db.pragma('quick_check(3)') as { quick_check: string }[];
  if (rows.length === 1 && rows[0]!.quick_check === 'ok') return;
  // One line: quick_check's findings can span several ('*** in database main ***' and the pages).
  const findings = rows.map((r) => r.quick_check.replace(/\s*\n\s*/g, ' ')).join('; ');
  throw new CatalogueDamagedError(file, `SQLite quick_check: ${findings}`);
}

/**
 * Catalogues quick_check found sound, by file and version. A read-only open of a file unchanged
 * since then skips the check: it takes some 400 ms on a 296 MB catalogue, and the app opens an
 * archive for each query. An open for writing (crawl, resume, repair) always checks, so a read-only
 * open while a writer holds the file skips it too (`writerChecked`): it changes with every commit,
 * and the app looks at an archive another process crawls every 2 s.
 */
const soundVersions = new Map<string, string>();

function checkPagesOnce(db: Database.Database, file: string): void {
  const version = versionOf(file);
  if (version !== null && soundVersions.get(file) === version) return;
  checkPages(db, file);
  if (version !== null) soundVersions.set(file, version);
}

/** The file's identity and last change, with its write-ahead log's (commits can sit there alone); null if unreadable. */
function versionOf(file: string): string | null {
  try {
    const s = statSync(file, { bigint: true });
    const wal = statSync(`${file}-wal`, { bigint: true, throwIfNoEntry: false });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${wal ? `${wal.size}:${wal.mtimeNs}` : '-'}`;
  } catch {
    return null;
  }
}

function isCorrupt(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB');
}

/** Whether a table has a column (a read-only open leaves an older catalogue as it was). */
export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[];
  return columns.some((c) => c.name === column);
}

export function isBusy(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/** Named statements, prepared on first use: a read-only open of an older schema only prepares what it reads. */
export class Statements<K extends string> {
  private readonly prepared = new Map<K, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly sql: Readonly<Record<K, string>>,
  ) {}

  get(name: K): Database.Statement {
    let statement = this.prepared.get(name);
    if (statement === undefined) {
      statement = this.db.prepare(this.sql[name]);
      this.prepared.set(name, statement);
    }
    return statement;
  }
}
