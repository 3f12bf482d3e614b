import type { CaptureSummary, ChangeReport, UrlCaptureInfo } from './captures.js';
import { ClusterControlSchema, ClusterDbUrlSchema, type ClusterView } from './cluster.js';
import { ScheduleSchema } from './schedule.js';
import { z } from 'zod';
import type { JobSummary, JobProgressHistory, ExportRecord, ArchiveSummary, ScriptsSetting, DeleteReport, PageRow, Paged, AppInfo, ImportStatus, CaptureContentReply, ExportStatus } from './appViews.js';
import type { CrawlStats, ProgressEvent, UrlEvent, UrlRecord } from './crawl.js';
import { SKIP_REASONS, URL_STATES } from './crawl.js';
import type { ExtractedTable, FocusReport, NotDuplicateMark } from './extracted.js';
import { AppSettingsSchema, LiveControlSchema, type AppSettings, type Job, type JobIssue } from './job.js';
import type { JobReport, UrlDetail } from './urlDetail.js';
import type { QaReport } from './report.js';
import type { QaPageDetail, QaResultsPage, QaRunStatus } from './qa.js';
import { SearchArgsSchema, type SearchReply } from './search.js';
import { DublinCoreSchema, EXPORT_FORMATS, type DublinCore, type MetadataSuggestion } from './metadata.js';

/**
 * The one contract between the engine's host (Electron main, or the `harvest serve` web host) and
 * the renderer: every command with the schema of its arguments (checked on the host side, since the
 * renderer is not trusted) and the type of its result, plus the events the host pushes.
 * Electron's preload and the web transport both derive their typed `api` object from this table.
 */

const id = z.string().min(1).max(100);
const pageArgs = {
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().positive().max(1000).default(200),
};

/** Job settings cross the boundary as unvalidated input; the host parses them with parseJob and answers with issues. */
const jobInput = z.record(z.string(), z.unknown());

export const COMMANDS = {
  'app.info': { args: z.object({}).strict() },
  /** Echoes its argument: for measuring the round trip. */
  'app.ping': { args: z.object({ sentAtMs: z.number() }).strict() },
  'jobs.list': { args: z.object({}).strict() },
  'jobs.create': { args: z.object({ job: jobInput, archiveDir: z.string().min(1).optional() }).strict() },
  'jobs.update': { args: z.object({ id, job: jobInput }).strict() },
  'jobs.duplicate': { args: z.object({ id }).strict() },
  'jobs.delete': { args: z.object({ id, deleteArchive: z.boolean() }).strict() },
  'jobs.start': { args: z.object({ id }).strict() },
  'jobs.pause': { args: z.object({ id }).strict() },
  /** Politeness changed while the job's crawl runs; kept with the job. */
  'jobs.control': { args: z.object({ id, control: LiveControlSchema }).strict() },
  'jobs.resume': { args: z.object({ id }).strict() },
  'jobs.cancel': { args: z.object({ id }).strict() },
  'jobs.stats': { args: z.object({ id }).strict() },
  'jobs.urls': {
    args: z
      .object({
        id,
        ...pageArgs,
        state: z.enum(URL_STATES).optional(),
        skipReason: z.enum(SKIP_REASONS).optional(),
        search: z.string().max(2000).optional(),
      })
      .strict(),
  },
  'archives.list': { args: z.object({}).strict() },
  'archives.pages': { args: z.object({ id, ...pageArgs, search: z.string().max(2000).optional() }).strict() },
  /** The page saved at a mirror path, so the viewer can show the original URL of what it displays. */
  'archives.lookup': { args: z.object({ id, localPath: z.string().max(4000) }).strict() },
  'archives.reveal': { args: z.object({ id }).strict() },
  /** Where the viewer's frame of this job is, as the host saw it navigate (token: what the frame's document reported, if anything). */
  'archives.frameLocation': { args: z.object({ id, token: z.string().max(100).optional() }).strict() },
  /** Adds an archive folder already on disk (one kept when its job was deleted, or made by `harvest crawl`) to the library. */
  'archives.open': { args: z.object({ archiveDir: z.string().min(1).max(4000) }).strict() },
  'archives.openInBrowser': { args: z.object({ id }).strict() },
  /** Whether the archive's pages run their own scripts in the viewer (off until turned on, in `harvest serve`). */
  'archives.scripts': { args: z.object({ id }).strict() },
  'archives.setScripts': { args: z.object({ id, allowed: z.boolean() }).strict() },
  'dialog.chooseFolder': { args: z.object({ title: z.string().max(200).optional() }).strict() },
  /** Where a new export goes: the native save dialog, or null (cancelled, or the web host). */
  'dialog.chooseExportPath': { args: z.object({ id, format: z.enum(EXPORT_FORMATS) }).strict() },
  'archives.getMetadata': { args: z.object({ id }).strict() },
  'archives.setMetadata': { args: z.object({ id, metadata: DublinCoreSchema }).strict() },
  /** A title and date from the crawl, for the editor to offer where the description has none. */
  'archives.suggestMetadata': { args: z.object({ id }).strict() },
  /**
   * Starts an export of a job's archive (not while it runs); progress and the outcome arrive as
   * 'export' events. Without outPath the host picks a fresh name in the archive's parent folder.
   */
  'archives.export': {
    args: z
      .object({
        id,
        format: z.enum(EXPORT_FORMATS),
        outPath: z.string().min(1).max(4000).optional(),
        includeMirror: z.boolean().default(false),
        /** WACZ, WARC and BagIt: only this capture (with the earlier records its revisits refer to); default every capture. */
        capture: z.number().int().positive().optional(),
      })
      .strict(),
  },
  'exports.cancel': { args: z.object({ exportId: id }).strict() },
  /** "Run again now": a new capture of a finished job (a re-crawl). */
  'jobs.recrawl': { args: z.object({ id }).strict() },
  /** Sets the job's schedule (null: none); allowed in any state, as it changes no capture's settings. */
  'jobs.setSchedule': { args: z.object({ id, schedule: ScheduleSchema.nullable() }).strict() },
  /** The archive's captures, with their counts by outcome. */
  'archives.captures': { args: z.object({ id }).strict() },
  /** What changed in a capture (default the latest) since another (default the one before). */
  'archives.changes': {
    args: z
      .object({
        id,
        capture: z.number().int().positive().optional(),
        since: z.number().int().positive().optional(),
        /** Each URL list starts this far in (the counts are never paged). */
        offset: z.number().int().nonnegative().default(0),
        limit: z.number().int().positive().max(100_000).default(1000),
      })
      .strict(),
  },
  /** A focused harvest's extracted records (one per page capture), at most `limit`. */
  'archives.extracted': { args: z.object({ id, limit: z.number().int().positive().max(100_000).default(10_000) }).strict() },
  /** A focused harvest's report (`harvest extract --format report`): per field pages, values and a sample; the near-duplicate groups. */
  'archives.focusReport': { args: z.object({ id }).strict() },
  /**
   * Marks a page flagged as a near-duplicate as none (`notDuplicate: true`, as `harvest extract
   * --not-duplicate`), or takes the mark back; the next re-crawl judges it accordingly. A URL that is
   * not a flagged page (or, to unmark, not a marked one) is 'not-found'.
   */
  'archives.markNotDuplicate': { args: z.object({ id, url: z.string().min(1).max(8000), notDuplicate: z.boolean() }).strict() },
  /** The captures of one page, for the viewer's timeline. */
  'archives.urlCaptures': { args: z.object({ id, url: z.string().max(8000) }).strict() },
  /** A page as it was in one capture, read from its WARC record. */
  'archives.captureContent': { args: z.object({ id, url: z.string().max(8000), capture: z.number().int().positive() }).strict() },
  /** One URL's detail (URL detail panel, not-in-archive page): the URL as found on the web or in the log. */
  'jobs.urlDetail': { args: z.object({ id, url: z.string().min(1).max(8000) }).strict() },
  /** A job's summary: stats, pages and the commonest failure reasons. */
  'jobs.report': { args: z.object({ id }).strict() },
  /** The latest progress and recent rates of a job (empty when it has not run in this host process). */
  'jobs.progress': { args: z.object({ id }).strict() },
  /** Finished exports of one archive, newest first. */
  'exports.list': { args: z.object({ id }).strict() },
  /** Re-checks a finished export's fixity (bag and WACZ manifests, or the sha256 taken when written). */
  'exports.verify': { args: z.object({ exportId: id }).strict() },
  /** Full-text search of one or more archives' text indexes; a bad query is an 'invalid-query' error naming the cause. */
  'archives.search': { args: SearchArgsSchema },
  /** The archive's QA report (`harvest report --format json`); not while its crawl runs. */
  'archives.report': { args: z.object({ id }).strict() },
  'settings.get': { args: z.object({}).strict() },
  /** Saves the app's settings; the job form's defaults follow (app.info). */
  'settings.set': { args: z.object({ settings: AppSettingsSchema }).strict() },
  /** Watches the cluster harvest in a PostgreSQL database; its reads arrive as 'cluster' events. */
  'clusters.attach': { args: z.object({ url: ClusterDbUrlSchema }).strict() },
  'clusters.list': { args: z.object({}).strict() },
  /** Pause, resume, politeness or active workers of an attached cluster harvest, as `harvest control --db`. */
  'clusters.control': { args: z.object({ id, control: ClusterControlSchema }).strict() },
  'clusters.detach': { args: z.object({ id }).strict() },
  /**
   * Starts (or resumes) the page analysis of an idle archive's newest capture, as `harvest qa`: pages
   * an earlier run analysed are kept unless `fresh`; `limit` analyses a sample. Progress arrives as
   * 'qa' events; the archive is busy (as during an export) until it ends.
   */
  'qa.start': { args: z.object({ id, limit: z.number().int().positive().optional(), fresh: z.boolean().default(false) }).strict() },
  /**
   * Patches the newest capture of an idle archive, as `harvest patch`: what its analysis found
   * missing is queued and fetched by a resume of the job (shown as the job running), then the pages
   * that lacked something fetched are analysed again. Progress and the report arrive as 'qa' events.
   */
  'qa.patch': { args: z.object({ id }).strict() },
  /** Pauses a running analysis: pages under way are abandoned, results so far are kept. */
  'qa.pause': { args: z.object({ id }).strict() },
  /** The archive's analysis run in this host process (running or its last outcome), or null. */
  'qa.status': { args: z.object({ id }).strict() },
  /** The newest capture's results, worst first, paged, with the histogram of all of them. */
  'qa.results': { args: z.object({ id, ...pageArgs, capture: z.number().int().positive().optional() }).strict() },
  /** One analysed page: its figures, both first-screenful captures and both visible texts. */
  'qa.page': { args: z.object({ id, url: z.string().min(1).max(8000), capture: z.number().int().positive().optional() }).strict() },
  /**
   * Imports WARC and WACZ files (or folders of them) into a new archive folder, as `harvest import`,
   * and adds it to the library. Refused at once when an input is missing or holds nothing to import,
   * or the folder is in use; progress and the outcome arrive as 'import' events. Without outDir the
   * archive goes in the data folder's archives, named after the import. A folder an unfinished import
   * of the same files left (killed, or paused before the host closed) is gone on with.
   */
  'archives.import': {
    args: z
      .object({
        paths: z.array(z.string().min(1).max(4000)).min(1).max(1000),
        outDir: z.string().min(1).max(4000).optional(),
        name: z.string().min(1).max(200).optional(),
      })
      .strict(),
  },
  /**
   * Pauses a running import at its next record (what was read is committed); the 'import' events
   * then say 'pausing', then 'paused'. Closing the app pauses every import.
   */
  'archives.importPause': { args: z.object({ importId: id }).strict() },
  /** Goes on with a paused import where it stopped. (An import the host lost, by a crash or a restart, goes on when `archives.import` is given the same files and folder.) */
  'archives.importResume': { args: z.object({ importId: id }).strict() },
  /** WARC and WACZ files to import: the native open dialog, or null (cancelled, or the web host). */
  'dialog.chooseImportFiles': { args: z.object({}).strict() },
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandArgs<C extends CommandName> = z.input<(typeof COMMANDS)[C]['args']>;
export type ParsedArgs<C extends CommandName> = z.output<(typeof COMMANDS)[C]['args']>;

export interface CommandResults {
  'app.info': AppInfo;
  'app.ping': { sentAtMs: number };
  'jobs.list': JobSummary[];
  'jobs.create': JobSummary;
  'jobs.update': JobSummary;
  'jobs.duplicate': JobSummary;
  'jobs.delete': DeleteReport;
  'jobs.start': JobSummary;
  'jobs.pause': JobSummary;
  'jobs.control': JobSummary;
  'jobs.resume': JobSummary;
  'jobs.cancel': JobSummary;
  'jobs.stats': CrawlStats;
  'jobs.urls': Paged<UrlRecord>;
  'archives.list': ArchiveSummary[];
  'archives.pages': Paged<PageRow>;
  'archives.lookup': PageRow | null;
  /** The folder's path (the web host cannot open a file manager on the archivist's screen, so it returns it to show). */
  'archives.reveal': { path: string };
  'archives.openInBrowser': { path: string };
  'archives.scripts': ScriptsSetting;
  'archives.setScripts': ScriptsSetting;
  'archives.open': JobSummary;
  /** null when the host saw no such navigation (a forged or stale report). */
  'archives.frameLocation': { localPath: string | null };
  /** null when cancelled, or on the web host, which has no native dialog. */
  'dialog.chooseFolder': { path: string | null };
  'dialog.chooseExportPath': { path: string | null };
  'archives.getMetadata': DublinCore;
  'archives.setMetadata': DublinCore;
  'archives.suggestMetadata': MetadataSuggestion;
  'archives.export': ExportStatus;
  'exports.cancel': ExportStatus;
  'jobs.urlDetail': UrlDetail | null;
  'jobs.report': JobReport;
  'jobs.progress': JobProgressHistory;
  'exports.list': ExportRecord[];
  'exports.verify': ExportRecord;
  'settings.get': AppSettings;
  'settings.set': AppSettings;
  'jobs.recrawl': JobSummary;
  'jobs.setSchedule': JobSummary;
  'archives.captures': CaptureSummary[];
  'archives.extracted': ExtractedTable;
  'archives.focusReport': FocusReport;
  'archives.markNotDuplicate': NotDuplicateMark;
  'archives.changes': ChangeReport;
  'archives.urlCaptures': UrlCaptureInfo[];
  'archives.captureContent': CaptureContentReply;
  'archives.search': SearchReply;
  'archives.report': QaReport;
  'clusters.attach': ClusterView;
  'clusters.list': ClusterView[];
  'clusters.control': ClusterView;
  'clusters.detach': { id: string };
  'qa.start': QaRunStatus;
  'qa.patch': QaRunStatus;
  'qa.pause': QaRunStatus;
  'qa.status': QaRunStatus | null;
  'qa.results': QaResultsPage;
  /** null when the page has no result in the newest capture. */
  'qa.page': QaPageDetail | null;
  'archives.import': ImportStatus;
  'archives.importPause': ImportStatus;
  'archives.importResume': ImportStatus;
  /** null when cancelled, or on the web host, which has no native dialog. */
  'dialog.chooseImportFiles': { paths: string[] | null };
}

export type CommandResult<C extends CommandName> = CommandResults[C];

/**
 * 'invalid-query': a search the query language refuses; the message says what to change.
 * 'unavailable': a service the command needs (a cluster harvest's PostgreSQL) did not answer.
 */
export type ErrorCode = 'invalid-args' | 'invalid-job' | 'invalid-query' | 'not-found' | 'conflict' | 'unsupported' | 'unavailable' | 'internal';

/** A failed command. 'invalid-job' carries the issues to show beside the form's fields. */
export interface CommandError {
  code: ErrorCode;
  message: string;
  issues?: JobIssue[];
}

export type Reply<T> = { ok: true; value: T } | { ok: false; error: CommandError };

/** Pushed by the host. URL events are batched so a full-speed crawl costs one message per progress tick. */
export type HostEvent =
  | { type: 'job'; job: JobSummary }
  | { type: 'job-deleted'; id: string }
  | { type: 'progress'; id: string; progress: ProgressEvent }
  | { type: 'urls'; id: string; events: UrlEvent[] }
  | { type: 'export'; export: ExportStatus }
  | { type: 'cluster'; cluster: ClusterView }
  | { type: 'cluster-detached'; id: string }
  | { type: 'qa'; qa: QaRunStatus }
  | { type: 'import'; import: ImportStatus };

/** The typed API the renderer calls; the preload and the web transport both implement it. */
export type HarvestApi = {
  [C in CommandName]: (args: CommandArgs<C>) => Promise<Reply<CommandResult<C>>>;
} & {
  /** Subscribes to host events; returns the unsubscribe function. */
  onEvent(listener: (e: HostEvent) => void): () => void;
};

/** Validates a command's arguments on the host side. */
export function parseArgs<C extends CommandName>(
  command: C,
  args: unknown,
): { ok: true; value: ParsedArgs<C> } | { ok: false; error: CommandError } {
  const r = COMMANDS[command].args.safeParse(args ?? {});
  if (r.success) return { ok: true, value: r.data as ParsedArgs<C> };
  return {
    ok: false,
    error: { code: 'invalid-args', message: `${command}: ${r.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}` },
  };
}

export function isCommandName(s: unknown): s is CommandName {
  return typeof s === 'string' && Object.hasOwn(COMMANDS, s);
}
