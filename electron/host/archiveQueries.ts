import { existsSync } from 'node:fs';
import path from 'node:path';
import { URL_STATES, SKIP_REASONS, type CrawlStats, type UrlRecord } from '../../shared/crawl.js';
import type { PageRow, Paged } from '../../shared/appViews.js';
import { DublinCoreSchema, StoredDublinCoreSchema, type DublinCore, type MetadataSuggestion } from '../../shared/metadata.js';
import { z } from 'zod';
import type { JobReport, UrlFacts } from '../../shared/urlDetail.js';
import type { Archive } from '../engine/store/archive.js';
import type { UrlCapture } from '../engine/store/catalogue.js';
import { CAPTURE_OUTCOMES, type CaptureSummary, type ChangeReport } from '../../shared/captures.js';
import { finalTarget } from '../engine/crawl/documents.js';
import { writeEntryPage } from '../engine/crawl/entryPage.js';
import { suggestMetadata } from '../engine/crawl/metadataSuggestion.js';
import { readMetadata, writeMetadata } from '../engine/store/metadata.js';
import { readStats } from '../engine/store/stats.js';
import { FocusStore } from '../engine/store/focusStore.js';
import {
  ExtractedTableSchema,
  FocusReportSchema,
  type ExtractedRecord,
  type ExtractedTable,
  type FocusReport,
  type NotDuplicateMark,
} from '../../shared/extracted.js';
import { focusReport } from '../engine/store/focusReport.js';
import { thumbnailPathFor } from '../engine/store/thumbnails.js';
import { CDX_SORTS, CdxQueryError, cdxLines, MATCH_TYPES, type CdxLine } from '../engine/cdx/cdxQuery.js';

/** Most lines one CDX query answers (pywb has no default limit; a page of a large archive is enough here). */
export const CDX_MAX_LINES = 100_000;

/**
 * The questions the host asks of an archive. While a job runs they travel to its crawl worker (which
 * holds the catalogue's exclusive lock) and are answered there by answerQuery; otherwise the host
 * opens the archive itself and calls the same function.
 */
export const ArchiveQuerySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stats') }),
  z.object({
    kind: z.literal('urls'),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    state: z.enum(URL_STATES).optional(),
    skipReason: z.enum(SKIP_REASONS).optional(),
    search: z.string().optional(),
  }),
  z.object({ kind: z.literal('pages'), offset: z.number().int().nonnegative(), limit: z.number().int().positive(), search: z.string().optional() }),
  z.object({ kind: z.literal('lookup'), localPath: z.string() }),
  /** Where the mirror holds each of these URLs (search hits), null where it holds none. */
  z.object({ kind: z.literal('localPaths'), urls: z.array(z.string()) }),
  z.object({ kind: z.literal('getMetadata') }),
  z.object({ kind: z.literal('captures') }),
  z.object({ kind: z.literal('extracted'), limit: z.number().int().positive() }),
  z.object({ kind: z.literal('focusReport') }),
  /** Marks (or unmarks) a page flagged as a near-duplicate as none, for the next re-crawl. */
  z.object({ kind: z.literal('markNotDuplicate'), url: z.string(), notDuplicate: z.boolean() }),
  z.object({
    kind: z.literal('changes'),
    capture: z.number().int().positive().optional(),
    since: z.number().int().positive().optional(),
    offset: z.number().int().nonnegative().optional(),
    limit: z.number().int().positive().optional(),
  }),
  z.object({ kind: z.literal('urlCaptures'), url: z.string() }),
  /** The CDX server API's query (pywb's matchType, sort, closest, from, to, limit). */
  z.object({
    kind: z.literal('cdx'),
    url: z.string(),
    match: z.enum(MATCH_TYPES),
    sort: z.enum(CDX_SORTS).optional(),
    closest: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    limit: z.number().int().positive().max(CDX_MAX_LINES),
  }),
  z.object({ kind: z.literal('captureAtPath'), localPath: z.string(), capture: z.number().int().positive() }),
  z.object({ kind: z.literal('linkTargets'), urls: z.array(z.string().nullable()) }),
  z.object({ kind: z.literal('urlFacts'), url: z.string() }),
  z.object({ kind: z.literal('report'), failures: z.number().int().positive() }),
  z.object({ kind: z.literal('setMetadata'), metadata: DublinCoreSchema }),
  z.object({ kind: z.literal('suggestMetadata') }),
]);
export type ArchiveQuery = z.infer<typeof ArchiveQuerySchema>;

export interface QueryAnswers {
  stats: CrawlStats;
  urls: Paged<UrlRecord>;
  pages: Paged<PageRow>;
  lookup: PageRow | null;
  localPaths: (string | null)[];
  getMetadata: DublinCore;
  setMetadata: DublinCore;
  urlFacts: UrlFacts | null;
  report: JobReport;
  suggestMetadata: MetadataSuggestion;
  captures: CaptureSummary[];
  extracted: ExtractedTable;
  focusReport: FocusReport;
  /** null when the URL is not a page flagged as a near-duplicate (nor, to unmark, one marked). */
  markNotDuplicate: NotDuplicateMark | null;
  changes: ChangeReport;
  /** Every capture of one URL with where its payload is, oldest first. */
  urlCaptures: UrlCapture[];
  /** The captures matching a CDX query, or why the query is wrong. */
  cdx: { lines: CdxLine[] } | { error: string };
  /** The URL at a mirror path and its capture nearest the one asked for (see CaptureStore.captureAtPath). */
  captureAtPath: { url: string; capture: UrlCapture | null } | null;
  /** Per canonical URL, the mirror file a reference to it points at; null when none. */
  linkTargets: (string | null)[];
}

export type QueryOf<K extends ArchiveQuery['kind']> = Extract<ArchiveQuery, { kind: K }>;

/** Which queries change the archive, so the host opens it writable for them. */
export function queryWrites(q: ArchiveQuery): boolean {
  return q.kind === 'setMetadata' || q.kind === 'markNotDuplicate';
}

export function answerQuery<K extends ArchiveQuery['kind']>(archive: Archive, q: QueryOf<K>): QueryAnswers[K];
export function answerQuery(archive: Archive, q: ArchiveQuery): QueryAnswers[ArchiveQuery['kind']] {
  const c = archive.catalogue;
  switch (q.kind) {
    case 'stats':
      return readStats(c);
    case 'urls':
      return c.queryUrls(q);
    case 'pages': {
      const page = c.queryPages(q);
      // A file check per listed page (at most a page of rows), not a walk of the whole folder.
      return { total: page.total, rows: page.rows.map((r) => ({ ...r, thumbnail: existsSync(path.join(archive.dir, thumbnailPathFor(r.localPath))) })) };
    }
    case 'localPaths':
      return q.urls.map((u) => c.recordOf(u)?.localPath ?? null);
    case 'lookup':
      return c.pageAt(q.localPath) ?? null;
    case 'getMetadata':
      return readMetadata(c);
    case 'setMetadata': {
      const saved = writeMetadata(c, q.metadata);
      // The mirror's front door shows the title and description.
      writeEntryPage(archive);
      return saved;
    }
    case 'suggestMetadata':
      return suggestMetadata(archive);
    case 'urlFacts':
      return c.urlFacts(q.url);
    case 'report':
      return { stats: readStats(c), pages: c.htmlPagesArchived(), topFailures: c.topFailures(q.failures), robotsProblems: c.robotsProblems() };
    case 'captures':
      return c.listCaptures();
    case 'extracted':
      return extractedTable(archive, q.limit);
    case 'focusReport': {
      const store = new FocusStore(archive.catalogue);
      return focusReport(store, store.columns(Object.keys(archive.job.template?.extract ?? {})));
    }
    case 'markNotDuplicate': {
      const row = c.lookup(q.url);
      if (row === undefined) return null;
      const store = new FocusStore(archive.catalogue);
      // Marking needs a flagged page; unmarking a page not marked changes nothing and is refused alike.
      const done = q.notDuplicate ? store.markDistinct(row.id) : store.unmarkDistinct(row.id);
      return done ? { url: q.url, notDuplicate: q.notDuplicate } : null;
    }
    case 'changes':
      return c.changes(q);
    case 'urlCaptures':
      return c.capturesOf(q.url);
    case 'cdx':
      try {
        return { lines: [...cdxLines(c, q)] };
      } catch (e) {
        if (e instanceof CdxQueryError) return { error: e.message };
        throw e;
      }
    case 'captureAtPath':
      return c.captureAtPath(q.localPath, q.capture) ?? null;
    case 'linkTargets':
      return q.urls.map((url) => {
        const target = url === null ? undefined : c.lookup(url);
        return target ? finalTarget(target) : null;
      });
  }
}

/** A focused harvest's records, the first `limit` of them. */
function extractedTable(archive: Archive, limit: number): ExtractedTable {
  const store = new FocusStore(archive.catalogue);
  const records: ExtractedRecord[] = [];
  let truncated = false;
  for (const r of store.iterateRecords()) {
    if (records.length === limit) {
      truncated = true;
      break;
    }
    records.push(r);
  }
  return { fields: store.columns(Object.keys(archive.job.template?.extract ?? {})), records, truncated };
}

/** Schemas of the answers, so what a worker sends back is checked before it reaches a client. */
const countsSchema = z.object({
  discovered: z.number(),
  queued: z.number(),
  inFlight: z.number(),
  archived: z.number(),
  redirects: z.number(),
  httpErrors: z.number(),
  failed: z.number(),
  skipped: z.number(),
  skippedByReason: z.partialRecord(z.enum(SKIP_REASONS), z.number()),
  bytes: z.number(),
});
export const CountsSchema = countsSchema;

const statsSchema = z.object({
  name: z.string(),
  seeds: z.array(z.string()),
  state: z.enum(['running', 'pausing', 'paused', 'finished', 'failed']),
  counts: countsSchema,
  byState: z.record(z.enum(URL_STATES), z.number()),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number(),
  robotsPolicy: z.enum(['obeyed', 'ignored']),
  message: z.string().nullable(),
});

const urlRecordSchema = z.object({
  url: z.string(),
  state: z.enum(URL_STATES),
  depth: z.number(),
  httpStatus: z.number().nullable(),
  contentType: z.string().nullable(),
  bytes: z.number().nullable(),
  localPath: z.string().nullable(),
  redirectTo: z.string().nullable(),
  skipReason: z.enum(SKIP_REASONS).nullable(),
  error: z.string().nullable(),
  reason: z.string().nullable(),
});

const pageRowSchema = z.object({
  url: z.string(),
  title: z.string().nullable(),
  localPath: z.string(),
  capturedAt: z.string().nullable().optional(),
  removed: z.boolean().optional(),
  thumbnail: z.boolean().optional(),
});

const requestTimingSchema = z.object({ requestedAt: z.string(), headersMs: z.number(), durationMs: z.number() });

const urlFactsSchema = z.object({
  record: urlRecordSchema,
  fetchedAt: z.string().nullable(),
  via: z.string().nullable(),
  linkedFrom: z.object({ url: z.string(), text: z.string().nullable() }).nullable(),
  warcPlace: z.object({ file: z.string(), offset: z.number(), length: z.number() }).nullable(),
  robots: z.object({ httpStatus: z.number().nullable(), error: z.string().nullable() }).nullable().optional(),
  timing: requestTimingSchema.nullable().optional(),
});

const reportSchema = z.object({
  stats: statsSchema,
  pages: z.number(),
  topFailures: z.array(z.object({ reason: z.string(), count: z.number() })),
  robotsProblems: z.array(z.object({ site: z.string(), httpStatus: z.number().nullable(), error: z.string().nullable() })).optional(),
});

const paged = <T extends z.ZodType>(row: T) => z.object({ total: z.number(), rows: z.array(row) });

const outcomeCountsSchema = z.object({
  new: z.number(),
  restored: z.number(),
  changed: z.number(),
  markupOnly: z.number(),
  unchanged: z.number(),
  notModified: z.number(),
  removed: z.number(),
  httpErrors: z.number(),
  failed: z.number(),
});

const captureSummarySchema = z.object({
  id: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  state: z.enum(['running', 'pausing', 'paused', 'finished', 'failed']),
  durationMs: z.number(),
  counts: outcomeCountsSchema,
  bytesAdded: z.number(),
});

const changeReportSchema = z.object({
  capture: z.number(),
  previous: z.number().nullable(),
  counts: outcomeCountsSchema,
  new: z.array(z.string()),
  restored: z.array(z.string()),
  changed: z.array(z.string()),
  markupOnly: z.array(z.string()),
  removed: z.array(z.string()),
});

const urlCaptureSchema = z.object({
  urlId: z.number(),
  capture: z.number(),
  outcome: z.enum(CAPTURE_OUTCOMES),
  httpStatus: z.number().nullable(),
  contentType: z.string().nullable(),
  bytes: z.number().nullable(),
  payloadDigest: z.string().nullable(),
  textDigest: z.string().nullable(),
  localPath: z.string().nullable(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  record: z.object({ file: z.string(), offset: z.number(), length: z.number() }).nullable(),
  contentEncoding: z.string().nullable(),
  fetchedAt: z.string(),
  timing: requestTimingSchema.nullable(),
});

export const QUERY_ANSWER_SCHEMAS: { [K in ArchiveQuery['kind']]: z.ZodType<QueryAnswers[K]> } = {
  stats: statsSchema,
  urls: paged(urlRecordSchema),
  pages: paged(pageRowSchema),
  lookup: pageRowSchema.nullable(),
  localPaths: z.array(z.string().nullable()),
  getMetadata: StoredDublinCoreSchema,
  setMetadata: StoredDublinCoreSchema,
  suggestMetadata: z.object({ title: z.string(), date: z.string() }),
  urlFacts: urlFactsSchema.nullable(),
  report: reportSchema,
  captures: z.array(captureSummarySchema),
  extracted: ExtractedTableSchema,
  focusReport: FocusReportSchema,
  markNotDuplicate: z.object({ url: z.string(), notDuplicate: z.boolean() }).nullable(),
  changes: changeReportSchema,
  urlCaptures: z.array(urlCaptureSchema),
  cdx: z.union([
    z.object({
      lines: z.array(
        z.object({ urlkey: z.string(), timestamp: z.string(), url: z.string(), mime: z.string(), status: z.string(), digest: z.string(), length: z.string(), offset: z.string(), filename: z.string() }),
      ),
    }),
    z.object({ error: z.string() }),
  ]),
  captureAtPath: z.object({ url: z.string(), capture: urlCaptureSchema.nullable() }).nullable(),
  linkTargets: z.array(z.string().nullable()),
};
