import Database from 'better-sqlite3';

/** Past any 14-digit time: the upper bound of the last capture. */
const END_OF_TIME = '99999999999999';
const BATCH = 10_000;

/**
 * The time (14 digits, as the index has it) of every record an export indexes, by URL, kept in a
 * throwaway SQLite file in the export's work folder so memory stays flat whatever the archive's
 * size. pages.jsonl dates each page by its own record through it: archives crawled before pages
 * were dated by their request's start keep times in the catalogue up to a few seconds after the
 * record, which a replay tool looks up in the index and would miss (or take the next capture's).
 */
export class RecordTimes {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly latestBefore: Database.Statement;
  private readonly earliest: Database.Statement;
  private pending: [string, string][] = [];
  private indexed = false;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE records (url TEXT NOT NULL, ts TEXT NOT NULL)');
    this.insert = this.db.prepare('INSERT INTO records (url, ts) VALUES (?, ?)');
    this.latestBefore = this.db.prepare('SELECT ts FROM records WHERE url = @url AND ts >= @from AND ts < @to AND ts <= @at ORDER BY ts DESC LIMIT 1').pluck();
    this.earliest = this.db.prepare('SELECT ts FROM records WHERE url = @url AND ts >= @from AND ts < @to ORDER BY ts LIMIT 1').pluck();
  }

  add(url: string, ts: string): void {
    this.pending.push([url, ts]);
    if (this.pending.length >= BATCH) this.flush();
  }

  /**
   * The time of `url`'s record within [from, to) (a capture's span; `to` null for the last): the
   * latest at or before `at` (the catalogue's time, never earlier than the record's), else the
   * earliest in the span; null when the span holds none.
   */
  timeOf(url: string, at: string, from: string, to: string | null): string | null {
    if (!this.indexed) {
      this.flush();
      this.db.exec('CREATE INDEX records_url_ts ON records (url, ts)');
      this.indexed = true;
    }
    const span = { url, from, to: to ?? END_OF_TIME };
    return ((this.latestBefore.get({ ...span, at }) ?? this.earliest.get(span)) as string | undefined) ?? null;
  }

  close(): void {
    this.db.close();
  }

  private flush(): void {
    const rows = this.pending;
    this.pending = [];
    this.db.transaction(() => {
      for (const [url, ts] of rows) this.insert.run(url, ts);
    })();
  }
}
