import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type HostEvent } from '../../shared/contract.js';
import { type ArchiveSummary, type CaptureContentReply, type DeleteReport, type JobProgressHistory, type JobStatus, type JobSummary } from '../../shared/appViews.js';
import type { UrlDetail } from '../../shared/urlDetail.js';
import type { AppSettings, Job, LiveControl } from '../../shared/job.js';
import { requestControl } from '../engine/crawl/liveControl.js';
import type { Schedule } from '../../shared/schedule.js';
import { readCaptureContent } from '../engine/crawl/captureContent.js';
import { Archive, WARC_DIR } from '../engine/store/archive.js';
import { removeArchiveContents } from '../engine/store/archiveFolder.js';
import { readStats } from '../engine/store/stats.js';
import { ArchiveClaims, type ClaimKind } from './archiveClaims.js';
import { asHostError, openArchive, slug, statusAfterRun, validJob } from './jobRules.js';
import { JobLibrary } from './jobLibrary.js';
import { answerQuery, queryWrites, type ArchiveQuery, type QueryAnswers, type QueryOf } from './archiveQueries.js';
import { WorkerGoneError, type RunOutcome } from './crawlRunner.js';
import type { DataDir, JobRecord } from './dataDir.js';
import { diskUsage } from './diskUsage.js';
import { HostError } from './hostError.js';
import { RunningCrawls } from './runningCrawls.js';
import type { ScheduledJob, ScheduledStart, ScheduleTarget } from './scheduler.js';
import { urlDetailOf } from './urlDetail.js';

export interface JobServiceOptions {
  dataDir: DataDir;
  /** Progress event period of every crawl (one 'progress' and at most one 'urls' event per tick). */
  progressIntervalMs?: number;
  /** The time schedules are reckoned in (ms since the epoch); injected by tests. */
  now?: () => number;
}

const STARTABLE: ReadonlySet<JobStatus> = new Set(['new', 'paused', 'interrupted', 'failed']);
const RESUMABLE: ReadonlySet<JobStatus> = new Set(['paused', 'interrupted', 'failed']);

/**
 * Every job the host knows and its crawls: creating and editing jobs, running several at once, and
 * answering questions about their archives. This is the commands' entry point; it applies the
 * rules of what a job may do in each state, over the job library (records and events), the running
 * crawls and the archive claims of exports and analyses.
 */
export class JobService implements ScheduleTarget {
  private readonly library: JobLibrary;
  private readonly runs: RunningCrawls;
  private readonly claims = new ArchiveClaims();
  private appSettings: AppSettings;

  constructor(private readonly opts: JobServiceOptions) {
    this.appSettings = opts.dataDir.loadSettings();
    this.library = new JobLibrary(opts.dataDir, (id) => this.runs.has(id), () => this.now());
    this.runs = new RunningCrawls(this.library, opts.progressIntervalMs);
  }

  get dataDir(): string {
    return this.opts.dataDir.dir;
  }

  /** Where new archives go when no folder is given. */
  get archivesDir(): string {
    return this.opts.dataDir.archivesDir;
  }

  /** The library's job for an archive folder, if it has one. */
  byArchiveDir(dir: string): JobSummary | null {
    const r = this.library.byArchiveDir(dir);
    return r ? this.library.summary(r) : null;
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    return this.library.onEvent(listener);
  }

  list(): JobSummary[] {
    return this.library.list();
  }

  get(id: string): JobSummary {
    return this.library.summary(this.library.record(id));
  }

  archives(): ArchiveSummary[] {
    return this.library.archives();
  }

  /** The app's settings. */
  get settings(): AppSettings {
    return this.appSettings;
  }

  saveSettings(settings: AppSettings): AppSettings {
    this.opts.dataDir.saveSettings(settings);
    this.appSettings = settings;
    return settings;
  }

  /** A job left without a contact takes the institution's, from the settings. */
  create(input: unknown, archiveDir?: string): JobSummary {
    const withContact =
      typeof input === 'object' && input !== null && !('contactUrl' in input) ? { ...input, contactUrl: this.appSettings.contact } : input;
    const job = validJob(withContact);
    const id = randomUUID();
    const dir = path.resolve(archiveDir ?? path.join(this.opts.dataDir.archivesDir, `${slug(job.name)}-${id.slice(0, 8)}`));
    try {
      Archive.create(dir, job).close();
    } catch (e) {
      throw asHostError(e);
    }
    const now = new Date().toISOString();
    return this.library.add({ id, job, archiveDir: dir, status: 'new', error: null, createdAt: now, updatedAt: now, bytesOnDisk: diskUsage(dir), schedule: null });
  }

  update(id: string, input: unknown): JobSummary {
    const r = this.idle(id, 'edited');
    // A finished capture's settings are part of its record; changed settings make a new capture.
    if (r.status === 'finished' || r.status === 'cancelled') {
      throw new HostError('conflict', `a ${r.status} job's settings are the record of its capture; start a new capture to change them`);
    }
    const job = validJob(input);
    this.claims.withArchive(r, true, (a) => {
      a.catalogue.setMeta('job', JSON.stringify(job));
      // Ignoring robots.txt once stays on the archive's record.
      if (!job.politeness.respectRobots) a.catalogue.setMeta('robots_policy', 'ignored');
    });
    r.job = job;
    return this.library.changed(r);
  }

  duplicate(id: string): JobSummary {
    const job = this.library.record(id).job as Job;
    return this.create({ ...job, name: `${job.name} (copy)`.slice(0, 200) });
  }

  /**
   * Removes the job; with `deleteArchive`, also what Harvest made in its archive folder (never the
   * archivist's own files there, nor a protected folder), reporting what it left.
   */
  delete(id: string, deleteArchive: boolean): DeleteReport {
    const r = this.idle(id, 'deleted');
    this.claims.assertFree(id);
    let report: DeleteReport = { archiveDir: r.archiveDir, kept: true, removed: [], leftBehind: [], folderRemoved: false, refused: null };
    if (deleteArchive) {
      try {
        report = { archiveDir: r.archiveDir, kept: false, ...removeArchiveContents(r.archiveDir) };
      } catch (e) {
        throw new HostError('internal', `could not delete the archive in ${r.archiveDir}: ${(e as Error).message}; the job is kept`);
      }
    }
    this.runs.history.delete(id);
    this.library.forget(id);
    return report;
  }

  /**
   * Adds an archive folder already on disk to the list as a job: one kept when its job was deleted,
   * or made by `harvest crawl`. Its settings and state come from its catalogue.
   */
  importArchive(dir: string): JobSummary {
    const abs = path.resolve(dir);
    const known = this.library.byArchiveDir(abs);
    if (known) throw new HostError('conflict', `${abs} is already in the library as '${(known.job as Job).name}'`);
    const a = openArchive(abs, false);
    let found: { job: Job; createdAt: string | null; status: JobStatus };
    try {
      const stats = readStats(a.catalogue);
      found = { job: a.job, createdAt: a.catalogue.getMeta('created_at'), status: stats.startedAt === null ? 'new' : statusAfterRun(stats.state) };
    } finally {
      a.close();
    }
    const now = new Date().toISOString();
    return this.library.add({
      id: randomUUID(),
      job: found.job,
      archiveDir: abs,
      status: found.status,
      error: null,
      createdAt: found.createdAt ?? now,
      updatedAt: now,
      bytesOnDisk: diskUsage(abs),
      schedule: null,
    });
  }

  start(id: string): JobSummary {
    const r = this.library.record(id);
    if (!STARTABLE.has(r.status)) throw new HostError('conflict', `a ${r.status} job cannot be started`);
    return this.launch(r);
  }

  resume(id: string): JobSummary {
    const r = this.library.record(id);
    if (!RESUMABLE.has(r.status)) throw new HostError('conflict', `a ${r.status} job cannot be resumed`);
    return this.launch(r);
  }

  /**
   * Runs a stopped job's current capture once more after `queue` has put in it what to fetch (a
   * patch of what the page analysis found missing): a resume, shown and paused as one. Resolves with
   * the run's outcome.
   */
  runQueued(id: string, queue: (a: Archive) => void): Promise<RunOutcome> {
    const r = this.idle(id, 'patched');
    if (r.status === 'new') throw new HostError('conflict', 'a job never crawled has nothing to patch');
    this.claims.assertFree(id);
    try {
      this.claims.withArchive(r, true, queue);
    } catch (e) {
      throw asHostError(e);
    }
    this.launch(r);
    return this.runs.runner(id)!.done;
  }

  /** "Run again now": starts the next capture of a finished job and runs it as a resume does. */
  recrawl(id: string): JobSummary {
    const r = this.library.record(id);
    if (r.status !== 'finished' || this.runs.has(id)) throw new HostError('conflict', `a ${r.status} job cannot be run again; only a finished one can`);
    try {
      this.claims.withArchive(r, true, (a) => a.beginCapture());
    } catch (e) {
      throw asHostError(e);
    }
    return this.launch(r);
  }

  /**
   * Sets (or, with null, removes) the job's schedule. Slots before now are not owed: the first
   * scheduled run is the first slot to come. Allowed whatever the job is doing.
   */
  setSchedule(id: string, schedule: Schedule | null): JobSummary {
    const r = this.library.record(id);
    r.schedule = schedule && { settings: schedule, handledThrough: new Date(this.now()).toISOString(), lastRunAt: r.schedule?.lastRunAt ?? null, lastError: null };
    return this.library.changed(r);
  }

  scheduledJobs(): ScheduledJob[] {
    const due: ScheduledJob[] = [];
    for (const r of this.library.all()) {
      if (!r.schedule) continue;
      // Only a job with no capture in progress: new (its first crawl) or finished (a re-crawl).
      const runnable = !this.runs.closed && (r.status === 'new' || r.status === 'finished') && !this.runs.has(r.id) && !this.claims.isClaimed(r.id);
      due.push({ id: r.id, schedule: r.schedule.settings, handledThrough: Date.parse(r.schedule.handledThrough), runnable });
    }
    return due;
  }

  runScheduled(id: string): ScheduledStart {
    try {
      if (this.library.record(id).status === 'new') this.start(id);
      else this.recrawl(id);
      return { kind: 'started' };
    } catch (e) {
      if (e instanceof HostError && e.code === 'conflict') return { kind: 'busy' };
      return { kind: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
  }

  settleSchedule(id: string, through: number, error: string | null): void {
    const r = this.library.find(id);
    if (!r?.schedule) return;
    const at = new Date(through).toISOString();
    r.schedule = { ...r.schedule, handledThrough: at, lastError: error, ...(error === null && { lastRunAt: at }) };
    this.library.changed(r);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** A page as it was in one capture, read from the WARC files (readable while the job runs). */
  async captureContent(id: string, url: string, capture: number): Promise<CaptureContentReply> {
    const r = this.library.record(id);
    const found = (await this.query(id, { kind: 'urlCaptures', url })).find((c) => c.capture === capture);
    if (found === undefined) throw new HostError('not-found', `${url} has no capture ${capture}`);
    try {
      const content = await readCaptureContent(path.join(r.archiveDir, WARC_DIR), url, found, (r.job as Job).fetch.maxResponseBytes);
      return { url, capture, ...content };
    } catch (e) {
      throw new HostError('not-found', `capture ${capture} of ${url} cannot be read: ${(e as Error).message}`);
    }
  }

  /** Drops a politeness change into the running crawl's archive folder; the crawl reports what it applied. */
  control(id: string, control: LiveControl): JobSummary {
    const r = this.library.record(id);
    if (r.status !== 'running') throw new HostError('conflict', `a ${r.status} job's crawl is not running; edit the job's settings instead`);
    requestControl(r.archiveDir, control);
    return this.library.summary(r);
  }

  pause(id: string): JobSummary {
    const r = this.library.record(id);
    if (!this.runs.pause(r)) throw new HostError('conflict', `a ${r.status} job cannot be paused`);
    return this.library.summary(r);
  }

  /** Stops the job for good; what it archived stays. A running crawl is paused first, so its checkpoint is clean. */
  cancel(id: string): JobSummary {
    const r = this.library.record(id);
    if (this.runs.cancel(r)) return this.library.changed(r);
    if (r.status === 'finished' || r.status === 'cancelled') throw new HostError('conflict', `a ${r.status} job cannot be cancelled`);
    r.status = 'cancelled';
    return this.library.changed(r);
  }

  /** Answers from the crawl worker while the job runs, else from the archive opened by the host. */
  async query<K extends ArchiveQuery['kind']>(id: string, q: QueryOf<K>): Promise<QueryAnswers[K]> {
    const r = this.library.record(id);
    const runner = this.runs.runner(id);
    if (runner) {
      try {
        return await runner.query(q);
      } catch (e) {
        if (!(e instanceof WorkerGoneError)) throw new HostError('internal', (e as Error).message);
        await runner.done;
        // The run just ended and the worker closed the archive; ask it directly.
      }
    }
    return this.claims.withArchive(r, queryWrites(q), (a) => answerQuery(a, q));
  }

  /** A URL's detail: the catalogue's facts and its WARC record's headers; null when the URL was never discovered. */
  urlDetail(id: string, url: string): Promise<UrlDetail | null> {
    return urlDetailOf(this.library.record(id).archiveDir, url, (canonical) => this.query(id, { kind: 'urlFacts', url: canonical }));
  }

  /** The latest progress event and recent rates of a running job, so a reloaded UI draws its graphs at once. */
  progress(id: string): JobProgressHistory {
    this.library.record(id);
    return this.runs.history.get(id);
  }

  /**
   * Opens a job's archive read-only for an export (or, `what` 'analysed', writable for a page
   * analysis), holding it until release: refused while the job runs, and no crawl starts meanwhile. Call release when done.
   */
  openForExport(id: string, what: ClaimKind = 'exported'): { archive: Archive; job: JobRecord; release: () => void } {
    const r = this.idle(id, what);
    return { ...this.claims.claim(r, what), job: r };
  }

  /** Pauses every running crawl and waits for their checkpoints; then the data folder is released. */
  async shutdown(): Promise<void> {
    if (this.runs.closed) return;
    this.library.close();
    await this.runs.shutdown();
    this.library.save();
    this.opts.dataDir.release();
  }

  /** Sends an event to every listener (other host parts, such as exports, publish through here too). */
  publish(e: HostEvent): void {
    this.library.publish(e);
  }

  private launch(r: JobRecord): JobSummary {
    if (this.runs.closed) throw new HostError('conflict', 'the host is shutting down');
    this.claims.assertFree(r.id);
    return this.runs.launch(r);
  }

  /** The job, if no crawl of it is running. */
  private idle(id: string, what: string): JobRecord {
    const r = this.library.record(id);
    if (this.runs.has(id)) throw new HostError('conflict', `a running job cannot be ${what}; pause it first`);
    return r;
  }
}
