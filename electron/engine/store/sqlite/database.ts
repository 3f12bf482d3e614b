import Database from 'better-sqlite3';
import { ArchiveFormatError, ArchiveInUseError, CatalogueDamagedError } from '../catalogueTypes.js';
import { ADDED_COLUMNS, SCHEMA_INDEXES_SQL, SCHEMA_SQL, SCHEMA_UPGRADES, SCHEMA_VERSION } from '../schema.js';

/**
 * Opens a catalogue file: with an exclusive lock that the OS drops when the process dies, so a
 * crashed crawl never blocks its own resume while a live one can't be opened twice; the schema
 * created or upgraded to this version. A read-only open changes nothing.
 */
export function openDatabase(file: string, opts: { readonly?: boolean } = {}): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false, timeout: 0 });
  } catch (e) {
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  try {
    checkPages(db, file);
    if (!opts.readonly) {
      // Exclusive locking: the lock is taken by the first write below and held until close, and
      // with it WAL needs no shared memory, so nothing is left behind by a crash.
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode: a commit survives a killed process; only power loss can cost the last few.
      db.pragma('synchronous = NORMAL');
      // A checkpoint fsyncs and blocks; a crawl runs its own (checkpoint()) at moments that suit
      // it. This is the backstop: 16,384 pages bounds the WAL file at 64 MB and its index at ~0.5 MB.
      db.pragma('wal_autocheckpoint = 16384');
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
      })();
    } else {
      db.prepare('SELECT 1 FROM meta LIMIT 1').get();
    }
  } catch (e) {
    db.close();
    if (isBusy(e)) throw new ArchiveInUseError(file);
    if (e instanceof ArchiveFormatError) throw e;
    if (isCorrupt(e)) throw new CatalogueDamagedError(file, (e as Error).message);
    throw new ArchiveFormatError(`cannot open catalogue ${file}: ${(e as Error).message}`);
  }
  return db;
}

/**
 * SQLite's quick_check (every page's structure, without comparing indexes to their tables): a
 * damaged page is reported when the archive is opened, by name, rather than as a stack trace from
 * whichever query first reads it.
 */
function checkPages(db: Database.Database, file: string): void {
  const rows = db.pragma('quick_check(3)') as { quick_check: string }[];
  if (rows.length === 1 && rows[0]!.quick_check === 'ok') return;
  throw new CatalogueDamagedError(file, `SQLite quick_check: ${rows.map((r) => r.quick_check).join('; ')}`);
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

function isBusy(e: unknown): boolean {
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
