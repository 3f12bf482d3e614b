import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HostEvent } from '../../shared/contract.js';
import type { ArchiveSummary, JobSummary } from '../../shared/appViews.js';
import type { Job } from '../../shared/job.js';
import { THUMBNAILS_DIR } from '../engine/store/archiveFolder.js';
import { ArchiveFacts } from './archiveFacts.js';
import type { DataDir, JobRecord } from './dataDir.js';
import { HostError } from './hostError.js';
import { scheduleInfo } from './jobRules.js';

/** How often idle archives are checked for captures made by another process. */
const ARCHIVE_WATCH_MS = 2_000;

/**
 * The host's list of jobs, kept in the data folder: each job's record, what its archive holds, and
 * its revision. Every change is saved and published as a HostEvent to the listeners.
 */
export class JobLibrary {
  private readonly records = new Map<string, JobRecord>();
  /** What each job's archive holds, read from its catalogue (or from its running crawl's progress). */
  readonly facts = new ArchiveFacts();
  /** Looks for captures other processes made (`harvest recrawl`), to announce them. */
  private readonly watch: NodeJS.Timeout;
  private readonly listeners = new Set<(e: HostEvent) => void>();
  /** Each job's revision: the value of `changes` when it last changed. */
  private readonly revisions = new Map<string, number>();
  private changes = 0;

  /** `isRunning` tells which archives a crawl of this host is writing (their facts come from its progress). */
  constructor(
    private readonly dataDir: DataDir,
    private readonly isRunning: (id: string) => boolean,
    private readonly now: () => number,
  ) {
    for (const r of dataDir.loadJobs()) {
      // Still marked running: the last host died without checkpointing this job.
      if (r.status === 'running' || r.status === 'pausing') r.status = 'interrupted';
      this.records.set(r.id, r);
      this.facts.read(r.id, r.archiveDir);
    }
    this.save();
    this.watch = setInterval(() => this.announceOutsideChanges(), ARCHIVE_WATCH_MS);
    this.watch.unref();
  }

  /** Stops watching for outside changes. */
  close(): void {
    clearInterval(this.watch);
  }

  all(): JobRecord[] {
    return [...this.records.values()];
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  /** The record, or undefined when there is no such job. */
  find(id: string): JobRecord | undefined {
    return this.records.get(id);
  }

  record(id: string): JobRecord {
    const r = this.records.get(id);
    if (!r) throw new HostError('not-found', `no job ${id}`);
    return r;
  }

  byArchiveDir(dir: string): JobRecord | undefined {
    const abs = path.resolve(dir);
    return this.all().find((x) => x.archiveDir === abs);
  }

  /** Adds a new job and reads its archive; published as a change. */
  add(r: JobRecord): JobSummary {
    this.records.set(r.id, r);
    this.facts.read(r.id, r.archiveDir);
    return this.changed(r);
  }

  /** Removes a job from the list, saved and published. */
  forget(id: string): void {
    this.records.delete(id);
    this.facts.delete(id);
    this.revisions.delete(id);
    this.save();
    this.publish({ type: 'job-deleted', id });
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): JobSummary[] {
    this.refreshIdle();
    return this.all().map((r) => this.summary(r));
  }

  archives(): ArchiveSummary[] {
    this.refreshIdle();
    return this.all().map((r) => {
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

  summary(r: JobRecord): JobSummary {
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

  /** Records that the job changed: a new revision, saved and published. */
  changed(r: JobRecord): JobSummary {
    r.updatedAt = new Date().toISOString();
    this.revisions.set(r.id, ++this.changes);
    this.save();
    const s = this.summary(r);
    this.publish({ type: 'job', job: s });
    return s;
  }

  save(): void {
    this.dataDir.saveJobs(this.all());
  }

  /** Sends an event to every listener. */
  publish(e: HostEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** Re-reads the archives no crawl of this host is writing whose catalogue changed; the ids that did. */
  private refreshIdle(): string[] {
    return this.all()
      .filter((r) => !this.isRunning(r.id) && this.facts.refresh(r.id, r.archiveDir))
      .map((r) => r.id);
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
}
