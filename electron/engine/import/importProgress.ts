import type Database from 'better-sqlite3';
import type { ImportProblem } from './importTypes.js';

/** Problems kept in the catalogue's record of the import (all are counted, and told as they are met). */
export const PROBLEMS_KEPT = 1_000;

/**
 * How far the import has read one of its files, as of the last commit. Written in the transaction
 * that commits the rows of the records it counts, so a killed import loses nothing committed and
 * takes nothing twice: it goes on reading at `at`, after the `skip` items there already taken (the
 * records of one gzip member share its offset).
 */
export interface FileProgress {
  /** The file's place in the import's reading order. */
  position: number;
  label: string;
  bytes: number;
  at: number;
  skip: number;
  records: number;
  duplicates: number;
  catalogued: number;
  problems: number;
  /** The archive's WARC file holding its records, and its length as committed. */
  warc: string | null;
  warcBytes: number;
  /** The capture its records went into; null while none did. */
  capture: number | null;
  /** Its latest record date (ms), for its capture's end. */
  lastMs: number | null;
  /** Read to its end; its WARC file is then finished. */
  done: boolean;
}

interface Row {
  position: number;
  label: string;
  bytes: number;
  at: number;
  skip: number;
  records: number;
  duplicates: number;
  catalogued: number;
  problems: number;
  warc: string | null;
  warc_bytes: number;
  capture: number | null;
  last_ms: number | null;
  done: number;
}

/** The import's progress in the catalogue: per file read (see FileProgress), and the problems kept. */
export class ImportProgressStore {
  private readonly upsert: Database.Statement;
  private readonly addProblem: Database.Statement;
  private readonly countProblems: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS import_files (
      position INTEGER PRIMARY KEY, label TEXT NOT NULL, bytes INTEGER NOT NULL, at INTEGER NOT NULL, skip INTEGER NOT NULL,
      records INTEGER NOT NULL, duplicates INTEGER NOT NULL, catalogued INTEGER NOT NULL, problems INTEGER NOT NULL,
      warc TEXT, warc_bytes INTEGER NOT NULL, capture INTEGER, last_ms INTEGER, done INTEGER NOT NULL)`);
    db.exec('CREATE TABLE IF NOT EXISTS import_problem_log (seq INTEGER PRIMARY KEY, file TEXT NOT NULL, offset INTEGER NOT NULL, why TEXT NOT NULL)');
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO import_files (position, label, bytes, at, skip, records, duplicates, catalogued, problems, warc, warc_bytes, capture, last_ms, done)
       VALUES (@position, @label, @bytes, @at, @skip, @records, @duplicates, @catalogued, @problems, @warc, @warc_bytes, @capture, @last_ms, @done)`,
    );
    this.addProblem = db.prepare('INSERT INTO import_problem_log (file, offset, why) VALUES (?, ?, ?)');
    this.countProblems = db.prepare('SELECT COUNT(*) FROM import_problem_log').pluck();
  }

  /** Every file's progress as committed, by position. */
  files(): Map<number, FileProgress> {
    const rows = this.db.prepare('SELECT * FROM import_files ORDER BY position').all() as Row[];
    return new Map(
      rows.map((r) => [
        r.position,
        {
          position: r.position,
          label: r.label,
          bytes: r.bytes,
          at: r.at,
          skip: r.skip,
          records: r.records,
          duplicates: r.duplicates,
          catalogued: r.catalogued,
          problems: r.problems,
          warc: r.warc,
          warcBytes: r.warc_bytes,
          capture: r.capture,
          lastMs: r.last_ms,
          done: r.done === 1,
        },
      ]),
    );
  }

  /** Records a file's progress; called in the transaction that commits what it counts. */
  save(p: FileProgress): void {
    this.upsert.run({
      position: p.position,
      label: p.label,
      bytes: p.bytes,
      at: p.at,
      skip: p.skip,
      records: p.records,
      duplicates: p.duplicates,
      catalogued: p.catalogued,
      problems: p.problems,
      warc: p.warc,
      warc_bytes: p.warcBytes,
      capture: p.capture,
      last_ms: p.lastMs,
      done: p.done ? 1 : 0,
    });
  }

  /** Keeps a problem (the first PROBLEMS_KEPT), in the transaction of the records read with it. */
  keep(p: ImportProblem): void {
    if ((this.countProblems.get() as number) < PROBLEMS_KEPT) this.addProblem.run(p.file, p.offset, p.why);
  }

  problems(): ImportProblem[] {
    return this.db.prepare('SELECT file, offset, why FROM import_problem_log ORDER BY seq').all() as ImportProblem[];
  }
}
