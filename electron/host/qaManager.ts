import type { HostEvent } from '../../shared/contract.js';
import type { QaPageDetail, QaResultsPage, QaRunStatus } from '../../shared/qa.js';
import { analyseArchive, qaSummary, QaUsageError } from '../engine/qa/analyse.js';
import { queuePatch, PatchUsageError, type PatchPlan } from '../engine/qa/patch/patchPlan.js';
import { beforeAfter, pagesToRescore, patchedResources } from '../engine/qa/patch/patchResults.js';
import { readEvidence } from '../engine/qa/evidence.js';
import { QaStore } from '../engine/qa/qaStore.js';
import { findBrowser } from '../engine/render/browserPath.js';
import type { Archive } from '../engine/store/archive.js';
import { HostError } from './hostError.js';
import { openArchive } from './jobRules.js';
import type { JobService } from './jobService.js';

/** Progress events per analysis are kept to a few a second. */
const PROGRESS_EVENT_GAP_MS = 250;

interface Run {
  status: QaRunStatus;
  abort: AbortController;
  /** The archive the analysis holds: results are read through it while it runs (null while a patch's crawl holds it). */
  archive: Archive | null;
  done: Promise<void>;
}

/**
 * Page analyses started from the app (`harvest qa` behind commands): one per archive at a time,
 * holding the archive as an export does, its progress pushed as 'qa' events. Pausing aborts the
 * run; what it analysed is already in the catalogue, so the next start resumes.
 */
export class QaManager {
  private readonly running = new Map<string, Run>();
  /** The last run's outcome per archive, for a reloaded screen. */
  private readonly last = new Map<string, QaRunStatus>();

  constructor(
    private readonly jobs: JobService,
    private readonly emit: (e: HostEvent) => void,
  ) {}

  start(id: string, opts: { limit?: number | undefined; fresh: boolean }): QaRunStatus {
    if (this.running.has(id)) throw new HostError('conflict', 'this archive is already being analysed');
    const { archive, release } = this.jobs.openForExport(id, 'analysed');
    let executablePath: string;
    try {
      executablePath = this.browserFor(archive.job.render.browserPath);
    } catch (e) {
      release();
      throw e;
    }
    const status = this.newStatus(id, archive.catalogue.currentCapture());
    const abort = new AbortController();
    const publish = () => this.emit({ type: 'qa', qa: { ...status } });
    const run = async () => {
      try {
        const outcome = await analyseArchive(archive, { ...archive.job.render, executablePath }, {
          ...(opts.limit !== undefined && { limit: opts.limit }),
          fresh: opts.fresh,
          signal: abort.signal,
          onProgress: this.progressTo(status, publish),
        });
        status.kept = outcome.kept;
        status.state = abort.signal.aborted ? 'paused' : 'done';
      } catch (e) {
        status.state = abort.signal.aborted ? 'paused' : 'failed';
        status.error = abort.signal.aborted ? null : e instanceof QaUsageError || e instanceof Error ? e.message : String(e);
      } finally {
        this.finish(id, status, release);
        publish();
      }
    };
    // The pages an earlier run analysed, so the screen can say how many are kept before the first is done.
    status.kept = opts.fresh ? 0 : new QaStore(archive.catalogue.sqlite).count(status.capture);
    const entry: Run = { status, abort, archive, done: Promise.resolve() };
    this.running.set(id, entry);
    publish();
    entry.done = run();
    return { ...status };
  }

  /**
   * Patches the archive's newest capture (`harvest patch`): its missing resources are queued and
   * fetched by a resume of the job, then the pages that lacked one fetched now are analysed again.
   */
  patch(id: string): QaRunStatus {
    if (this.running.has(id)) throw new HostError('conflict', 'this archive is already being analysed');
    const executablePath = this.browserFor(this.jobs.get(id).job.render.browserPath);
    let plan: PatchPlan | null = null;
    const fetched = this.jobs.runQueued(id, (archive) => {
      try {
        plan = queuePatch(archive);
      } catch (e) {
        throw e instanceof PatchUsageError ? new HostError('conflict', e.message) : e;
      }
    });
    const queued = plan as PatchPlan | null;
    if (queued === null) throw new HostError('internal', 'the patch was not queued');
    const abort = new AbortController();
    const status: QaRunStatus = { ...this.newStatus(id, queued.capture), patch: { phase: 'fetching', report: null } };
    const entry: Run = { status, abort, archive: null, done: Promise.resolve() };
    const publish = () => this.emit({ type: 'qa', qa: { ...status } });
    const run = async () => {
      let release: (() => void) | null = null;
      try {
        const outcome = await fetched;
        if (outcome.state !== 'finished') {
          status.state = outcome.state === 'failed' ? 'failed' : 'paused';
          status.error = outcome.state === 'failed' ? (outcome.error ?? 'the crawl failed') : null;
          return;
        }
        const held = this.jobs.openForExport(id, 'analysed');
        release = held.release;
        entry.archive = held.archive;
        const resources = patchedResources(held.archive, queued);
        const pages = pagesToRescore(queued, resources);
        status.patch = { phase: 'analysing', report: null };
        publish();
        if (pages.length > 0) {
          await analyseArchive(held.archive, { ...held.archive.job.render, executablePath }, { pages, signal: abort.signal, onProgress: this.progressTo(status, publish) });
        }
        const store = new QaStore(held.archive.catalogue.sqlite);
        const report = { capture: queued.capture, resources, pages: beforeAfter(queued, pages, (url) => store.result(queued.capture, url)) };
        status.state = abort.signal.aborted ? 'paused' : 'done';
        if (!abort.signal.aborted) status.patch = { phase: 'done', report };
      } catch (e) {
        status.state = abort.signal.aborted ? 'paused' : 'failed';
        status.error = abort.signal.aborted ? null : e instanceof Error ? e.message : String(e);
      } finally {
        this.finish(id, status, release);
        publish();
      }
    };
    this.running.set(id, entry);
    publish();
    entry.done = run();
    return { ...status };
  }

  pause(id: string): QaRunStatus {
    const r = this.running.get(id);
    if (!r) throw new HostError('conflict', 'no analysis of this archive is running');
    r.abort.abort();
    // A patch's fetching is the job's crawl: paused as the job is (unless its run has just ended).
    if (r.status.patch?.phase === 'fetching') {
      try {
        this.jobs.pause(id);
      } catch (e) {
        if (!(e instanceof HostError)) throw e;
      }
    }
    return { ...r.status };
  }

  status(id: string): QaRunStatus | null {
    this.jobs.get(id);
    const r = this.running.get(id);
    return r ? { ...r.status } : (this.last.get(id) ?? null);
  }

  /** A capture's results (default the newest), with the captures that have some. */
  results(id: string, offset: number, limit: number, asked?: number): QaResultsPage {
    return this.read(id, (archive) => {
      const capture = Math.min(asked ?? Infinity, archive.catalogue.currentCapture());
      const store = new QaStore(archive.catalogue.sqlite);
      const captures = store.captures();
      let pages = 0;
      for (const _ of archive.catalogue.iterateCapturePages(capture)) pages++;
      const summary = qaSummary(archive, capture, 0);
      if (summary === null) return { capture: null, captures, total: 0, pages, histogram: new Array<number>(10).fill(0), errors: 0, withMissing: 0, rows: [] };
      const page = store.page(capture, offset, limit);
      return { capture, captures, total: page.total, pages, histogram: summary.histogram, errors: summary.errors, withMissing: summary.withMissing, rows: page.rows };
    });
  }

  page(id: string, url: string, asked?: number): QaPageDetail | null {
    return this.read(id, (archive) => {
      const capture = Math.min(asked ?? Infinity, archive.catalogue.currentCapture());
      const result = new QaStore(archive.catalogue.sqlite).result(capture, url);
      if (result === null) return null;
      const row = archive.catalogue.sqlite.prepare(`SELECT local_path AS p FROM urls WHERE url = ?`).get(url) as { p: string | null } | undefined;
      const localPath = row?.p ?? null;
      const none = { image: null, text: null };
      return {
        result,
        reference: localPath === null ? none : readEvidence(archive.dir, capture, localPath, 'reference'),
        copy: localPath === null ? none : readEvidence(archive.dir, capture, localPath, 'copy'),
        replay: localPath === null ? none : readEvidence(archive.dir, capture, localPath, 'replay'),
      };
    });
  }

  /** Abandons every running analysis (results so far are kept; a patch's fetching is paused with its job) and waits for them to let go of their archives. */
  async shutdown(): Promise<void> {
    const runs = [...this.running.entries()];
    for (const [id] of runs) this.pause(id);
    await Promise.all(runs.map(([, r]) => r.done));
  }

  private browserFor(browserPath: string | null): string {
    try {
      return findBrowser(browserPath);
    } catch (e) {
      throw new HostError('unsupported', `the analysis renders pages in Chromium: ${(e as Error).message}`);
    }
  }

  private newStatus(id: string, capture: number): QaRunStatus {
    return { jobId: id, capture, state: 'running', done: 0, total: 0, kept: 0, startedAt: new Date().toISOString(), etaMs: null, error: null };
  }

  /** Counts pages done into `status`, publishing a few times a second and at the last page. */
  private progressTo(status: QaRunStatus, publish: () => void): (done: number, total: number) => void {
    const startedAtMs = Date.now();
    let lastEventMs = 0;
    return (done, total) => {
      status.done = done;
      status.total = total;
      status.etaMs = done === 0 ? null : Math.round(((Date.now() - startedAtMs) / done) * (total - done));
      const now = Date.now();
      if (now - lastEventMs >= PROGRESS_EVENT_GAP_MS || done === total) {
        lastEventMs = now;
        publish();
      }
    };
  }

  /** A run has ended: it is the archive's last, and the archive is let go. */
  private finish(id: string, status: QaRunStatus, release: (() => void) | null): void {
    status.etaMs = null;
    this.running.delete(id);
    this.last.set(id, { ...status });
    release?.();
  }

  /** Reads through the running analysis's archive, else opens it read-only (refused while a crawl or export holds it). */
  private read<T>(id: string, fn: (a: Archive) => T): T {
    const job = this.jobs.get(id);
    const r = this.running.get(id);
    if (r?.archive) return fn(r.archive);
    const archive = openArchive(job.archiveDir, false);
    try {
      return fn(archive);
    } finally {
      archive.close();
    }
  }
}
