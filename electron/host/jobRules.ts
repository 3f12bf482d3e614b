import type { JobStatus } from '../../shared/appViews.js';
import type { CrawlState } from '../../shared/crawl.js';
import { JobValidationError, parseJob, type Job } from '../../shared/job.js';
import { nextRun, type ScheduleInfo } from '../../shared/schedule.js';
import { Archive, ArchiveUsageError } from '../engine/store/archive.js';
import { ArchiveFormatError, ArchiveInUseError } from '../engine/store/catalogue.js';
import type { ScheduleState } from './dataDir.js';
import { HostError } from './hostError.js';

// The job service's rules that need none of its state: validation, errors, status and naming.

export function validJob(input: unknown): Job {
  try {
    return parseJob(input);
  } catch (e) {
    if (e instanceof JobValidationError) throw new HostError('invalid-job', e.message, e.issues);
    throw e;
  }
}

/** `idle`: a read-only open that another process must not be writing (see Archive.open). */
export function openArchive(dir: string, writable: boolean, idle = false): Archive {
  try {
    return Archive.open(dir, { readonly: !writable, idle });
  } catch (e) {
    throw asHostError(e);
  }
}

/** An engine error as the reply a command gives (an archive in use is a conflict, a foreign folder bad input). */
export function asHostError(e: unknown): HostError {
  if (e instanceof HostError) return e;
  if (e instanceof ArchiveInUseError) return new HostError('conflict', e.message);
  if (e instanceof ArchiveUsageError || e instanceof ArchiveFormatError) return new HostError('invalid-args', e.message);
  return new HostError('internal', e instanceof Error ? e.message : String(e));
}

export function statusAfterRun(state: CrawlState): JobStatus {
  return state === 'running' || state === 'pausing' ? 'interrupted' : state;
}

export function scheduleInfo(s: ScheduleState, now: number): ScheduleInfo {
  const next = nextRun(s.settings, Date.parse(s.handledThrough), now);
  return { schedule: s.settings, nextRunAt: new Date(next.at).toISOString(), due: next.due, lastRunAt: s.lastRunAt, lastError: s.lastError };
}

/** A folder name from a job's name. */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'harvest'
  );
}
