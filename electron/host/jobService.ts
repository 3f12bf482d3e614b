import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ArchiveSummary, type CaptureContentReply, type DeleteReport, type HostEvent, type JobProgressHistory, type JobStatus, type JobSummary } from '../../shared/contract.js';
import type { UrlDetail } from '../../shared/urlDetail.js';
import type { AppSettings, Job, LiveControl } from '../../shared/job.js';
import { requestControl } from '../engine/crawl/liveControl.js';
import type { Schedule } from '../../shared/schedule.js';
import { createHostGatesBuffer } from '../engine/politeness/sharedHostGates.js';
import { readCaptureContent } from '../engine/crawl/captureContent.js';
import { Archive, WARC_DIR } from '../engine/store/archive.js';
import { removeArchiveContents, THUMBNAILS_DIR } from '../engine/store/archiveFolder.js';
import { readStats } from '../engine/store/stats.js';
import { ArchiveFacts } from './archiveFacts.js';
import { asHostError, openArchive, scheduleInfo, slug, statusAfterRun, validJob } from './jobRules.js';
import { RateHistory } from './rateHistory.js';
import { answerQuery, queryWrites, type ArchiveQuery, type QueryAnswers, type QueryOf } from './archiveQueries.js';
import { CrawlRunner, WorkerGoneError, type RunOutcome } from './crawlRunner.js';
import type { DataDir, JobRecord } from './dataDir.js';
import { diskUsage } from './diskUsage.js';
import { HostError } from './hostError.js';
import type { ScheduledJob, ScheduledStart, ScheduleTarget } from './scheduler.js';
import { urlDetailOf } from './urlDetail.js';

export interface JobServiceOptions {
  dataDir: DataDir;
  /** Progress event period of every crawl (one 'progress' and at most one 'urls' event per tick). */
  progressIntervalMs?: number;
  /** The time schedules are reckoned in (ms since the epoch); injected by tests. */
  now?: () => number;
}


/** How often idle archives are checked for captures made by another process. */
const ARCHIVE_WATCH_MS = 2_000;

const STARTABLE: ReadonlySet<JobStatus> = new Set(['new', 'paused', 'interrupted', 'failed']);
const RESUMABLE: ReadonlySet<JobStatus> = new Set(['paused', 'interrupted', 'failed']);

/**
 * Every job the host knows and its crawls: creating and editing jobs, running several at once (each
 * crawl in its own worker thread), and answering questions about their archives. State changes go
 * out as HostEvents; URL outcomes go out in one batch per progress tick.
 */
export class JobService implements ScheduleTarget {
  private readonly records = new Map<string, JobRecord>();
  private readonly facts = new ArchiveFacts();
  /** Looks for captures other processes made (`harvest recrawl`), to announce them. */
  private readonly watch: NodeJS.Timeout;
  private readonly runners = new Map<string, CrawlRunner>();
  private readonly cancelRequested = new Set<string>();
  /** Archives held by an export or a page analysis, with what holds them ('exported', 'analysed'). */
  private readonly exporting = new Map<string, string>();
  /** The archive a page analysis holds (writable, so no other connection can open it): queries go through it. */
  private readonly lent = new Map<string, Archive>();
  /** Each job's rate history from its current (or last) run in this process. */
  private readonly history = new RateHistory();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  /** Each job's revision: the value of `changes` when it last changed. */
  private readonly revisions = new Map<string, number>();
  private changes = 0;
  /** Politeness per host, shared by every crawl worker, so jobs on one host keep to the stricter limits together. */
  private readonly gates = createHostGatesBuffer();
  private closed = false;
  private appSettings: AppSettings;

  constructor(private readonly opts: JobServiceOptions) {
    this.appSettings = opts.dataDir.loadSettings();
    for (const r of opts.dataDir.loadJobs()) {
      // Still marked running: the last host died without checkpointing this job.
      if (r.status === 'running' || r.status === 'pausing') r.status = 'interrupted';
      this.records.set(r.id, r);
      this.facts.read(r.id, r.archiveDir);
    }
    this.save();
    this.watch = setInterval(() => this.announceOutsideChanges(), ARCHIVE_WATCH_MS);
    this.watch.unref();
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
    const abs = path.resolve(dir);
    const r = [...this.records.values()].find((x) => x.archiveDir === abs);
    return r ? this.summary(r) : null;
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): JobSummary[] {
    this.refreshIdle();
    return [...this.records.values()].map((r) => this.summary(r));
  }

  /** Re-reads the archives no crawl of this host is writing whose catalogue changed; the ids that did. */
  private refreshIdle(): string[] {
    return [...this.records.values()].filter((r) => !this.runners.has(r.id) && this.facts.refresh(r.id, r.archiveDir)).map((r) => r.id);
  }

  /** Tells every screen of a capture another process made, as if this host had made it. */
  private announceOutsideChanges(): void {
    for (const id of this.refreshIdle()) {
      const r = this.records.get(id);
      if (!r) continue;
      this.revisions.set(id, ++this.changes);
      this.publish({ type: 'job', job: this.summary(r) });
    }
  }

  get(id: string): JobSummary {
    return this.summary(this.record(id));
  }

  archives(): ArchiveSummary[] {
    this.refreshIdle();
    return [...this.records.values()].map((r) => {
      const job = r.job as Job;
      const f = this.facts.get(r.id);
      return {
        jobId: r.id,
        name: job.name,
        seeds: job.seeds,
        archiveDir: r.archiveDir,
        createdAt: r.createdAt,
        finishedAt: f?.finishedAt ?? null,
        status: r.status,
        pages: f?.pages ?? 0,
        capture: f?.capture ?? null,
        bytesOnDisk: r.bytesOnDisk,
        hasThumbnails: existsSync(path.join(r.archiveDir, THUMBNAILS_DIR)),
      };
    });
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
    const r: JobRecord = { id, job, archiveDir: dir, status: 'new', error: null, createdAt: now, updatedAt: now, bytesOnDisk: diskUsage(dir), schedule: null };
    this.records.set(id, r);
    this.facts.read(id, dir);
    return this.changed(r);
  }

  update(id: string, input: unknown): JobSummary {
    const r = this.idle(id, 'edited');
    // A finished capture's settings are part of its record; changed settings make a new capture.
    if (r.status === 'finished' || r.status === 'cancelled') {
      throw new HostError('conflict', `a ${r.status} job's settings are the record of its capture; start a new capture to change them`);
    }
    const job = validJob(input);
    this.withArchive(r, true, (a) => {
      a.catalogue.setMeta('job', JSON.stringify(job));
      // Ignoring robots.txt once stays on the archive's record.
      if (!job.politeness.respectRobots) a.catalogue.setMeta('robots_policy', 'ignored');
    });
    r.job = job;
    return this.changed(r);
  }

  duplicate(id: string): JobSummary {
    const job = this.record(id).job as Job;
    return this.create({ ...job, name: `${job.name} (copy)`.slice(0, 200) });
  }

  /**
   * Removes the job; with `deleteArchive`, also what Harvest made in its archive folder (never the
   * archivist's own files there, nor a protected folder), reporting what it left.
   */
  delete(id: string, deleteArchive: boolean): DeleteReport {
    const r = this.idle(id, 'deleted');
    if (this.exporting.has(id)) throw new HostError('conflict', `the archive is being ${this.exporting.get(id)}`);
    let report: DeleteReport = { archiveDir: r.archiveDir, kept: true, removed: [], leftBehind: [], folderRemoved: false, refused: null };
    if (deleteArchive) {
      try {
        report = { archiveDir: r.archiveDir, kept: false, ...removeArchiveContents(r.archiveDir) };
      } catch (e) {
        throw new HostError('internal', `could not delete the archive in ${r.archiveDir}: ${(e as Error).message}; the job is kept`);
      }
    }
    this.forget(id);
    return report;
  }

  /**
   * Adds an archive folder already on disk to the list as a job: one kept when its job was deleted,
   * or made by `harvest crawl`. Its settings and state come from its catalogue.
   */
  importArchive(dir: string): JobSummary {
    const abs = path.resolve(dir);
    const known = [...this.records.values()].find((r) => r.archiveDir === abs);
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
    const r: JobRecord = {
      id: randomUUID(),
      job: found.job,
      archiveDir: abs,
      status: found.status,
      error: null,
      createdAt: found.createdAt ?? now,
      updatedAt: now,
      bytesOnDisk: diskUsage(abs),
      schedule: null,
    };
    this.records.set(r.id, r);
    this.facts.read(r.id, abs);
    return this.changed(r);
  }

  private forget(id: string): void {
    this.records.delete(id);
    this.facts.delete(id);
    this.history.delete(id);
    this.revisions.delete(id);
    this.save();
    this.publish({ type: 'job-deleted', id });
  }

  start(id: string): JobSummary {
    const r = this.record(id);
    if (!STARTABLE.has(r.status)) throw new HostError('conflict', `a ${r.status} job cannot be started`);
    return this.launch(r);
  }

  resume(id: string): JobSummary {
    const r = this.record(id);
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
    if (this.exporting.has(id)) throw new HostError('conflict', `the archive is being ${this.exporting.get(id)}`);
    try {
      this.withArchive(r, true, queue);
    } catch (e) {
      throw asHostError(e);
    }
    this.launch(r);
    return this.runners.get(id)!.done;
  }

  /** "Run again now": starts the next capture of a finished job and runs it as a resume does. */
  recrawl(id: string): JobSummary {
    const r = this.record(id);
    if (r.status !== 'finished' || this.runners.has(id)) throw new HostError('conflict', `a ${r.status} job cannot be run again; only a finished one can`);
    try {
      this.withArchive(r, true, (a) => a.beginCapture());
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
    const r = this.record(id);
    r.schedule = schedule && { settings: schedule, handledThrough: new Date(this.now()).toISOString(), lastRunAt: r.schedule?.lastRunAt ?? null, lastError: null };
    return this.changed(r);
  }

  scheduledJobs(): ScheduledJob[] {
    const due: ScheduledJob[] = [];
    for (const r of this.records.values()) {
      if (!r.schedule) continue;
      // Only a job with no capture in progress: new (its first crawl) or finished (a re-crawl).
      const runnable = !this.closed && (r.status === 'new' || r.status === 'finished') && !this.runners.has(r.id) && !this.exporting.has(r.id);
      due.push({ id: r.id, schedule: r.schedule.settings, handledThrough: Date.parse(r.schedule.handledThrough), runnable });
    }
    return due;
  }

  runScheduled(id: string): ScheduledStart {
    try {
      if (this.record(id).status === 'new') this.start(id);
      else this.recrawl(id);
      return { kind: 'started' };
    } catch (e) {
      if (e instanceof HostError && e.code === 'conflict') return { kind: 'busy' };
      return { kind: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
  }

  settleSchedule(id: string, through: number, error: string | null): void {
    const r = this.records.get(id);
    if (!r?.schedule) return;
    const at = new Date(through).toISOString();
    r.schedule = { ...r.schedule, handledThrough: at, lastError: error, ...(error === null && { lastRunAt: at }) };
    this.changed(r);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** A page as it was in one capture, read from the WARC files (readable while the job runs). */
  async captureContent(id: string, url: string, capture: number): Promise<CaptureContentReply> {
    const r = this.record(id);
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
    const r = this.record(id);
    if (r.status !== 'running') throw new HostError('conflict', `a ${r.status} job's crawl is not running; edit the job's settings instead`);
    requestControl(r.archiveDir, control);
    return this.summary(r);
  }

  pause(id: string): JobSummary {
    const r = this.record(id);
    const runner = this.runners.get(id);
    if (!runner) throw new HostError('conflict', `a ${r.status} job cannot be paused`);
    if (r.status === 'running') {
      runner.pause();
      r.status = 'pausing';
      this.changed(r);
    }
    return this.summary(r);
  }

  /** Stops the job for good; what it archived stays. A running crawl is paused first, so its checkpoint is clean. */
  cancel(id: string): JobSummary {
    const r = this.record(id);
    const runner = this.runners.get(id);
    if (runner) {
      this.cancelRequested.add(id);
      runner.pause();
      if (r.status === 'running') r.status = 'pausing';
      return this.changed(r);
    }
    if (r.status === 'finished' || r.status === 'cancelled') throw new HostError('conflict', `a ${r.status} job cannot be cancelled`);
    r.status = 'cancelled';
    return this.changed(r);
  }

  /** Answers from the crawl worker while the job runs, else from the archive opened by the host. */
  async query<K extends ArchiveQuery['kind']>(id: string, q: QueryOf<K>): Promise<QueryAnswers[K]> {
    const r = this.record(id);
    const runner = this.runners.get(id);
    if (runner) {
      try {
        return await runner.query(q);
      } catch (e) {
        if (!(e instanceof WorkerGoneError)) throw new HostError('internal', (e as Error).message);
        await runner.done;
        // The run just ended and the worker closed the archive; ask it directly.
      }
    }
    return this.withArchive(r, queryWrites(q), (a) => answerQuery(a, q));
  }

  /** A URL's detail: the catalogue's facts and its WARC record's headers; null when the URL was never discovered. */
  urlDetail(id: string, url: string): Promise<UrlDetail | null> {
    return urlDetailOf(this.record(id).archiveDir, url, (canonical) => this.query(id, { kind: 'urlFacts', url: canonical }));
  }

  /** The latest progress event and recent rates of a running job, so a reloaded UI draws its graphs at once. */
  progress(id: string): JobProgressHistory {
    this.record(id);
    return this.history.get(id);
  }

  /**
   * Opens a job's archive read-only for an export (or, `what` 'analysed', writable for a page
   * analysis), holding it until release: refused while the job runs, and no crawl starts meanwhile. Call release when done.
   */
  openForExport(id: string, what: 'exported' | 'analysed' = 'exported'): { archive: Archive; job: JobRecord; release: () => void } {
    const r = this.idle(id, what);
    if (this.exporting.has(id)) throw new HostError('conflict', `the archive is already being ${this.exporting.get(id)}`);
    // An analysis writes its results into the catalogue; an export only reads.
    const archive = openArchive(r.archiveDir, what === 'analysed');
    this.exporting.set(id, what);
    if (what === 'analysed') this.lent.set(id, archive);
    return {
      archive,
      job: r,
      release: () => {
        this.lent.delete(id);
        archive.close();
        this.exporting.delete(id);
      },
    };
  }

  /** Pauses every running crawl and waits for their checkpoints; then the data folder is released. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watch);
    const running = [...this.runners.entries()];
    for (const [id, runner] of running) {
      runner.pause();
      const r = this.records.get(id);
      if (r && r.status === 'running') r.status = 'pausing';
    }
    await Promise.all(running.map(([, runner]) => runner.done));
    // Let each run's completion handler record its final status before saving.
    await new Promise((resolve) => setImmediate(resolve));
    this.save();
    this.opts.dataDir.release();
  }

  private launch(r: JobRecord): JobSummary {
    if (this.closed) throw new HostError('conflict', 'the host is shutting down');
    if (this.exporting.has(r.id)) throw new HostError('conflict', `the archive is being ${this.exporting.get(r.id)}`);
    const runner = new CrawlRunner(
      { archiveDir: r.archiveDir, gates: this.gates, ...(this.opts.progressIntervalMs !== undefined && { progressIntervalMs: this.opts.progressIntervalMs }) },
      {
        onProgress: (progress, urls) => {
          this.facts.live(r.id, progress.counts, progress.elapsedMs);
          this.history.remember(r.id, progress);
          this.publish({ type: 'progress', id: r.id, progress });
          if (urls.length) this.publish({ type: 'urls', id: r.id, events: urls });
        },
        onState: (state, _message, politeness) => {
          if (state === 'pausing' && r.status === 'running') {
            r.status = 'pausing';
            this.changed(r);
          }
          // Changed while running (jobs.control or `harvest control`): the crawl kept it with the job.
          if (politeness !== undefined) {
            r.job = { ...(r.job as Job), politeness };
            this.changed(r);
          }
        },
      },
    );
    this.runners.set(r.id, runner);
    this.history.delete(r.id);
    r.status = 'running';
    r.error = null;
    void runner.done.then((outcome) => {
      this.runners.delete(r.id);
      const cancelled = this.cancelRequested.delete(r.id);
      r.status = cancelled && outcome.state !== 'failed' && outcome.state !== 'finished' ? 'cancelled' : statusAfterRun(outcome.state);
      r.error = outcome.state === 'failed' ? (outcome.error ?? 'the crawl failed') : outcome.state === 'finished' ? outcome.error : null;
      r.bytesOnDisk = diskUsage(r.archiveDir);
      this.facts.read(r.id, r.archiveDir);
      if (this.records.has(r.id)) this.changed(r);
    });
    return this.changed(r);
  }

  private record(id: string): JobRecord {
    const r = this.records.get(id);
    if (!r) throw new HostError('not-found', `no job ${id}`);
    return r;
  }

  /** The job, if no crawl of it is running. */
  private idle(id: string, what: string): JobRecord {
    const r = this.record(id);
    if (this.runners.has(id)) throw new HostError('conflict', `a running job cannot be ${what}; pause it first`);
    return r;
  }

  private withArchive<T>(r: JobRecord, writable: boolean, fn: (a: Archive) => T): T {
    const held = this.lent.get(r.id);
    if (held) return fn(held);
    const a = openArchive(r.archiveDir, writable);
    try {
      return fn(a);
    } finally {
      a.close();
    }
  }

  private summary(r: JobRecord): JobSummary {
    const f = this.facts.get(r.id);
    return {
      id: r.id,
      job: r.job as Job,
      archiveDir: r.archiveDir,
      status: r.status,
      error: r.error,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      revision: this.revisions.get(r.id) ?? 0,
      counts: f?.counts ?? null,
      durationMs: f?.durationMs ?? 0,
      pages: f?.pages ?? 0,
      capture: f?.capture ?? null,
      startedAt: f?.startedAt ?? null,
      finishedAt: f?.finishedAt ?? null,
      schedule: r.schedule && scheduleInfo(r.schedule, this.now()),
    };
  }

  private changed(r: JobRecord): JobSummary {
    r.updatedAt = new Date().toISOString();
    this.revisions.set(r.id, ++this.changes);
    this.save();
    const s = this.summary(r);
    this.publish({ type: 'job', job: s });
    return s;
  }

  private save(): void {
    this.opts.dataDir.saveJobs([...this.records.values()]);
  }

  /** Sends an event to every listener (other host parts, such as exports, publish through here too). */
  publish(e: HostEvent): void {
    for (const l of this.listeners) l(e);
  }
}
