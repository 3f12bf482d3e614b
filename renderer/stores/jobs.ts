import { create } from 'zustand';
import type { Reply } from '../../shared/contract.js';
import type { JobStatus, JobSummary } from '../../shared/appViews.js';
import type { Schedule } from '../../shared/schedule.js';
import { deletionSummary } from '../lib/deletion.js';
import { command, commandValue } from './command.js';
import { useToasts } from './toasts.js';

interface JobsState {
  byId: Record<string, JobSummary>;
  loaded: boolean;
  selectedId: string | null;
  setAll(jobs: JobSummary[]): void;
  upsert(job: JobSummary): void;
  removeLocal(id: string): void;
  select(id: string | null): void;
  load(): Promise<void>;
  create(job: Record<string, unknown>, archiveDir?: string): Promise<Reply<JobSummary>>;
  update(id: string, job: Record<string, unknown>): Promise<Reply<JobSummary>>;
  duplicate(id: string): Promise<JobSummary | null>;
  remove(id: string, deleteArchive: boolean): Promise<boolean>;
  start(id: string): Promise<void>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  /** "Run again now": the next capture of a finished job. */
  recrawl(id: string): Promise<void>;
  /** Saves (or with null removes) the job's schedule; the reply, or null after a failure (already reported). */
  setSchedule(id: string, schedule: Schedule | null): Promise<JobSummary | null>;
}

/** A reply that arrives after the event of a later change must not undo it. */
function newer(known: JobSummary | undefined, incoming: JobSummary): JobSummary {
  return known && known.revision > incoming.revision ? known : incoming;
}

export const useJobs = create<JobsState>()((set, get) => {
  const runCommand = async (name: 'jobs.start' | 'jobs.pause' | 'jobs.resume' | 'jobs.cancel' | 'jobs.recrawl', id: string): Promise<void> => {
    const job = await commandValue(name, { id });
    if (job) get().upsert(job);
  };
  return {
    byId: {},
    loaded: false,
    selectedId: null,
    setAll: (jobs) =>
      set((s) => {
        const byId = Object.fromEntries(jobs.map((j) => [j.id, newer(s.byId[j.id], j)]));
        const selectedId = s.selectedId && byId[s.selectedId] ? s.selectedId : null;
        return { byId, loaded: true, selectedId };
      }),
    upsert: (job) =>
      set((s) => {
        const kept = newer(s.byId[job.id], job);
        return kept === job ? { byId: { ...s.byId, [job.id]: job } } : s;
      }),
    removeLocal: (id) =>
      set((s) => {
        if (!s.byId[id]) return s;
        const { [id]: _gone, ...byId } = s.byId;
        return { byId, selectedId: s.selectedId === id ? null : s.selectedId };
      }),
    select: (selectedId) => set({ selectedId }),
    load: async () => {
      const jobs = await commandValue('jobs.list', {});
      if (jobs) get().setAll(jobs);
    },
    create: async (job, archiveDir) => {
      const reply = await command('jobs.create', archiveDir ? { job, archiveDir } : { job });
      if (reply.ok) {
        get().upsert(reply.value);
        set({ selectedId: reply.value.id });
      }
      return reply;
    },
    update: async (id, job) => {
      const reply = await command('jobs.update', { id, job });
      if (reply.ok) get().upsert(reply.value);
      return reply;
    },
    duplicate: async (id) => {
      const job = await commandValue('jobs.duplicate', { id });
      if (job) {
        get().upsert(job);
        set({ selectedId: job.id });
      }
      return job;
    },
    remove: async (id, deleteArchive) => {
      const name = get().byId[id]?.job.name ?? id;
      const reply = await command('jobs.delete', { id, deleteArchive });
      if (reply.ok) {
        get().removeLocal(id);
        useToasts.getState().push('info', deletionSummary(name, reply.value));
      }
      return reply.ok;
    },
    start: (id) => runCommand('jobs.start', id),
    pause: (id) => runCommand('jobs.pause', id),
    resume: (id) => runCommand('jobs.resume', id),
    cancel: (id) => runCommand('jobs.cancel', id),
    recrawl: (id) => runCommand('jobs.recrawl', id),
    setSchedule: async (id, schedule) => {
      const job = await commandValue('jobs.setSchedule', { id, schedule });
      if (job) get().upsert(job);
      return job;
    },
  };
});

type JobsView = Pick<JobsState, 'byId'>;

/** Job ids, newest first (use with useShallow). */
export const selectJobIds = (s: JobsView): string[] =>
  Object.values(s.byId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
    .map((j) => j.id);

export const selectJob =
  (id: string | null) =>
  (s: JobsView): JobSummary | undefined =>
    id ? s.byId[id] : undefined;

export const selectRunningCount = (s: JobsView): number =>
  Object.values(s.byId).filter((j) => j.status === 'running' || j.status === 'pausing').length;

/** Which run-control actions a job's status allows. */
export interface RunActions {
  start: boolean;
  pause: boolean;
  resume: boolean;
  cancel: boolean;
  /** Run again now: a new capture with the same settings (re-crawl). */
  again: boolean;
  /** Resume is offered as recovery from a crash. */
  crashed: boolean;
}

export function runActionsFor(status: JobStatus): RunActions {
  return {
    start: status === 'new',
    pause: status === 'running',
    // A failed run resumes where it stopped (an unreachable site is asked again).
    resume: status === 'paused' || status === 'interrupted' || status === 'failed',
    cancel: status === 'running' || status === 'pausing' || status === 'paused' || status === 'interrupted',
    again: status === 'finished',
    crashed: status === 'interrupted',
  };
}

/** Whether a job's settings may be edited now (not while a run holds them). */
export const isEditable = (status: JobStatus): boolean => status !== 'running' && status !== 'pausing';

/** A finished or cancelled job's settings are the record of its capture: changing them makes a new capture. */
export const isRecorded = (status: JobStatus): boolean => status === 'finished' || status === 'cancelled';

const sameSeeds = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && [...a].sort().every((s, i) => s === [...b].sort()[i]);

/** How many other jobs have this job's name and seeds (duplicates to tell apart). */
export const selectTwinCount =
  (id: string) =>
  (s: JobsView): number => {
    const job = s.byId[id];
    if (!job) return 0;
    return Object.values(s.byId).filter((o) => o.id !== id && o.job.name.trim() === job.job.name.trim() && sameSeeds(o.job.seeds, job.job.seeds)).length;
  };

/** Jobs with this name and these seeds (for the job form's warning). */
export const selectJobsLike =
  (name: string, seeds: readonly string[], exceptId?: string) =>
  (s: JobsView): JobSummary[] =>
    Object.values(s.byId).filter((o) => o.id !== exceptId && o.job.name.trim() === name.trim() && sameSeeds(o.job.seeds, seeds));
