import type Database from 'better-sqlite3';
import type { CaptureSummary, ChangeReport } from '../../../../shared/captures.js';
import type { CrawlState, SkipReason, UrlRecord, UrlState } from '../../../../shared/crawl.js';
import type { FailureReason, RobotsProblem, UrlFacts } from '../../../../shared/urlDetail.js';
import type { CatalogueStore } from '../catalogueStore.js';
import type {
  FetchOutcome,
  LinkRow,
  NewUrl,
  CapturePage,
  PageRecord,
  PageRow,
  PayloadCapture,
  QueuedRow,
  Readmission,
  RobotsRow,
  StoredOriginal,
  UrlCapture,
  UrlQuery,
  UrlRow,
} from '../catalogueTypes.js';
import { SqliteCaptureRows } from './captureRows.js';
import { SqliteCatalogueQueries } from './catalogueQueries.js';
import { closeDatabase, hasColumn, openDatabase } from './database.js';
import { SqliteMeta } from './metaRows.js';
import { SqlitePayloadRows } from './payloadRows.js';
import { SqliteUrlRows } from './urlRows.js';
import { WriterLock } from './writerLock.js';

/**
 * The writer's page cache, in KiB: 4 MB rather than the better-sqlite3 build's 16 MB, which a
 * crawl's catalogue outgrows within minutes (723 MB on disk at 100,000 pages). The
 * rows a crawl touches again (its frontier, the last pages' URLs) are few, and a page read again
 * comes from the operating system's file cache. Scenario 3 at 10,000 pages, with two malloc arenas
 * (electron/cli/harvest.ts): the crawl loop's malloc heap and the arenas 56 -> 35 MB, CPU 121.1
 * against 121.4 s (one run each, in the same minutes).
 */
export const WRITER_CACHE_KIB = 4000;

/** An archive's catalogue in one SQLite file (WAL; one writer, who holds its writer lock): each concern's rows in a module of its own. */
export class SqliteCatalogue implements CatalogueStore {
  private readonly urls: SqliteUrlRows;
  private readonly meta: SqliteMeta;
  private readonly payloads: SqlitePayloadRows;
  private readonly queries: SqliteCatalogueQueries;
  private readonly captures: SqliteCaptureRows;
  /** Opened read-only, an archive made before captures has one, and no table of them. */
  private readonly oneCapture: boolean;
  /**
   * One transaction function for every call: better-sqlite3 builds a new one, with its deferred,
   * immediate and exclusive variants, for each `db.transaction(fn)`, and a crawl opens two or three
   * transactions a URL (the PostgreSQL manual's profile: 0.2 s of some 30 s of samples).
   */
  private readonly inTransaction: (fn: () => unknown) => unknown;

  private constructor(
    private readonly db: Database.Database,
    /** Held while open for writing; null when read-only. */
    private readonly lock: WriterLock | null,
  ) {
    // Statement journals in memory: in a file (SQLite's default here), once one spilled past 64 KB
    // every later statement's went to it, some 18,500 writes in a crawl of the PostgreSQL manual.
    if (!db.readonly) db.pragma('temp_store = MEMORY');
    if (!db.readonly) db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.meta = new SqliteMeta(db);
    this.captures = new SqliteCaptureRows(db, this.meta);
    const current = () => this.captures.currentCapture();
    const oneCapture = !hasColumn(db, 'urls', 'capture');
    this.oneCapture = oneCapture;
    this.urls = new SqliteUrlRows(db, current, oneCapture);
    this.payloads = new SqlitePayloadRows(db, this.meta);
    this.queries = new SqliteCatalogueQueries(db, current, oneCapture);
  }

  static open(file: string, opts: { readonly?: boolean } = {}): SqliteCatalogue {
    if (opts.readonly) return new SqliteCatalogue(openDatabase(file, { readonly: true, writerChecked: WriterLock.isHeld(file) }), null);
    const lock = WriterLock.take(file);
    try {
      return new SqliteCatalogue(openDatabase(file, opts), lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  get sqlite(): Database.Database {
    return this.db;
  }

  close(): void {
    closeDatabase(this.db);
    this.lock?.release();
  }

  /**
   * Copies the write-ahead log into the database now. It blocks for as long as the log is big (some
   * 450 ms for 64 MB here), so a crawl calls it often enough to keep each one short.
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.inTransaction(fn) as T;
    } catch (e) {
      // Cached rows may hold writes that were just rolled back.
      this.urls.forget();
      throw e;
    }
  }

  getMeta(key: string): string | null {
    return this.meta.getMeta(key);
  }
  setMeta(key: string, value: string): void {
    this.meta.setMeta(key, value);
  }
  getRobots(site: string): RobotsRow | undefined {
    return this.meta.getRobots(site);
  }
  putRobots(site: string, r: RobotsRow): void {
    this.meta.putRobots(site, r);
  }

  currentCapture(): number {
    return this.captures.currentCapture();
  }
  ensureCapture(startedAt: Date): void {
    this.captures.ensureCapture(startedAt);
  }

  beginCapture(startedAt: Date): number {
    try {
      return this.transaction(() => {
        const n = this.captures.nextCapture(startedAt);
        this.meta.setMeta('state', 'paused' satisfies CrawlState);
        this.meta.setMeta('started_at', startedAt.toISOString());
        this.meta.setMeta('duration_ms', '0');
        this.meta.deleteMeta('finished_at');
        // Asked afresh in each capture; a resumed one obeys what it fetched.
        this.db.exec('DELETE FROM robots; DELETE FROM query_variants;');
        return n;
      });
    } catch (e) {
      this.captures.reload();
      throw e;
    }
  }
  endCaptureRun(state: CrawlState, durationMs: number, finishedAt: Date | null): void {
    this.captures.endCaptureRun(state, durationMs, finishedAt);
  }
  previousCapture(urlId: number, before?: number): UrlCapture | undefined {
    return this.captures.previousCapture(urlId, before);
  }
  putUrlCapture(c: UrlCapture): void {
    this.captures.putUrlCapture(c);
  }
  markUnreachedRemoved(at: Date): number {
    return this.captures.markUnreachedRemoved(at);
  }
  listCaptures(): CaptureSummary[] {
    return this.captures.listCaptures();
  }
  capturesOf(url: string): UrlCapture[] {
    return this.captures.capturesOf(url);
  }
  changes(opts: { capture?: number; since?: number; limit?: number }): ChangeReport {
    return this.captures.changes(opts);
  }
  *iterateCapturePages(capture?: number): Generator<CapturePage> {
    if (!this.oneCapture) return yield* this.captures.iterateCapturePages(capture);
    if (capture === undefined || capture === 1) for (const p of this.queries.iterateHtmlPages()) yield { ...p, capture: 1 };
  }
  captureAtPath(localPath: string, capture: number): { url: string; capture: UrlCapture | null } | undefined {
    return this.oneCapture ? undefined : this.captures.captureAtPath(localPath, capture);
  }

  lookup(url: string): UrlRow | undefined {
    return this.urls.lookup(url);
  }
  get(id: number): UrlRow | undefined {
    return this.urls.get(id);
  }
  insert(u: NewUrl): UrlRow {
    return this.urls.insert(u);
  }
  requeue(row: UrlRow, depth: number, requisite: boolean): void {
    this.urls.requeue(row, depth, requisite);
  }
  readmit(row: UrlRow, r: Readmission): void {
    this.urls.readmit(row, r);
  }
  nextQueued(site: string, limit: number): QueuedRow[] {
    return this.urls.nextQueued(site, limit);
  }
  nextRetry(site: string, limit: number): QueuedRow[] {
    return this.urls.nextRetry(site, limit);
  }
  setAttempts(id: number, attempts: number): void {
    this.urls.setAttempts(id, attempts);
  }
  nextQueuedBest(site: string, limit: number): QueuedRow[] {
    return this.urls.nextQueuedBest(site, limit);
  }
  raiseScore(id: number, score: number): boolean {
    return this.urls.raiseScore(id, score);
  }
  retryUnreachable(): number {
    return this.urls.retryUnreachable();
  }
  retryFailed(): number {
    return this.urls.retryFailed();
  }
  sitesWithQueued(): string[] {
    return this.urls.sitesWithQueued();
  }
  recordOutcome(target: { id: number; url: string }, o: FetchOutcome): void {
    this.urls.recordOutcome(target, o);
  }
  skip(target: { id: number; url: string }, reason: SkipReason, error: string | null = null): void {
    this.urls.skip(target, reason, error);
  }
  skipQueued(reason: SkipReason, opts: { keepRequisites: boolean; except: number[] }): number {
    return this.urls.skipQueued(reason, opts);
  }
  resolveRedirectChains(): { id: number; redirect_to_id: number | null }[] {
    return this.urls.resolveRedirectChains();
  }
  markError(id: number, error: string): void {
    this.urls.markError(id, error);
  }
  staleDocumentIds(fromId: number, toId: number): number[] {
    return this.urls.staleDocumentIds(fromId, toId);
  }
  maxUrlId(): number {
    return this.urls.maxUrlId();
  }
  replaceLinks(fromId: number, links: LinkRow[]): void {
    this.urls.replaceLinks(fromId, links);
  }
  bumpQueryVariant(key: string): number {
    return this.urls.bumpQueryVariant(key);
  }

  putOriginal(urlId: number, contentType: string | null, original: StoredOriginal): void {
    this.payloads.putOriginal(urlId, contentType, original);
  }
  getOriginal(urlId: number): StoredOriginal | undefined {
    return this.payloads.getOriginal(urlId);
  }
  captureByDigest(digest: string): PayloadCapture | null {
    return this.payloads.captureByDigest(digest);
  }
  putCapture(digest: string, capture: PayloadCapture): void {
    this.payloads.putCapture(digest, capture);
  }
  warcCheckpoint(file: string): number | null {
    return this.payloads.warcCheckpoint(file);
  }
  setWarcCheckpoint(file: string, end: number): void {
    this.payloads.setWarcCheckpoint(file, end);
  }

  countByState(): Record<UrlState, number> {
    return this.queries.countByState();
  }
  countBySkipReason(): Partial<Record<SkipReason, number>> {
    return this.queries.countBySkipReason();
  }
  totalBytes(): number {
    return this.queries.totalBytes();
  }
  htmlPagesArchived(): number {
    return this.queries.htmlPagesArchived();
  }
  pageOf(url: string): PageRow | null {
    return this.queries.pageOf(url);
  }
  iterateHtmlPages(): Generator<PageRow> {
    return this.queries.iterateHtmlPages();
  }
  queryUrls(q: UrlQuery): { total: number; rows: UrlRecord[] } {
    return this.queries.queryUrls(q);
  }
  queryPages(q: { search?: string; offset: number; limit: number }): { total: number; rows: PageRecord[] } {
    return this.queries.queryPages(q);
  }
  pageAt(localPath: string): PageRecord | undefined {
    return this.queries.pageAt(localPath);
  }
  iterateRecords(): Generator<UrlRecord> {
    return this.queries.iterateRecords();
  }
  urlFacts(url: string): UrlFacts | null {
    return this.queries.urlFacts(url);
  }
  robotsProblems(): RobotsProblem[] {
    return this.queries.robotsProblems();
  }
  topFailures(limit: number): FailureReason[] {
    return this.queries.topFailures(limit);
  }
  recordOf(url: string): UrlRecord | null {
    return this.queries.recordOf(url);
  }
}
