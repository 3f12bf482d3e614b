import { nextRun, type Schedule } from '../../shared/schedule.js';

/** The time, injected so tests move it by hand. */
export interface Clock {
  now(): number;
}

/** One pending wake-up at a time, injected so tests fire it by hand. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemClock: Clock = { now: () => Date.now() };
export const systemTimers: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // A waiting schedule must not keep a host process alive that has nothing else to do.
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * The longest the scheduler sleeps between looks. Timers run on a monotonic clock that stops while
 * the computer sleeps, and the wall clock can be changed: looking every minute keeps a slot at
 * most a minute late after either.
 */
export const MAX_WAIT_MS = 60_000;

export interface ScheduledJob {
  id: string;
  schedule: Schedule;
  /** Every slot at or before this instant (ms) has been dealt with (run, skipped, or before the schedule was set). */
  handledThrough: number;
  /** Whether a scheduled run may start now: no capture of this archive is running, paused or otherwise unfinished. */
  runnable: boolean;
}

/** 'busy': the archive is held (by an export, or another process); the run is tried again later. */
export type ScheduledStart = { kind: 'started' } | { kind: 'busy' } | { kind: 'failed'; error: string };

/** What the scheduler needs of the host's jobs. */
export interface ScheduleTarget {
  scheduledJobs(): ScheduledJob[];
  /** Starts the job's next capture (its first crawl, or a re-crawl). */
  runScheduled(id: string): ScheduledStart;
  /** Records that every slot up to `through` is dealt with; `error` when this one's run could not start. */
  settleSchedule(id: string, through: number, error: string | null): void;
}

/**
 * Starts scheduled runs. At each look it finds, per job, the latest slot not yet dealt with: a job
 * that can run starts once for it, however many slots were missed while the host was closed; a job
 * whose capture is in progress keeps it due, and it starts once that capture has finished (the
 * host pokes the scheduler on every change of a job). Never two runs of one archive at once: the
 * target refuses to start a job that runs.
 */
export class Scheduler {
  private handle: unknown = null;
  private stopped = true;

  constructor(
    private readonly target: ScheduleTarget,
    private readonly clock: Clock = systemClock,
    private readonly timers: Timers = systemTimers,
  ) {}

  /** Looks at once (the catch-up of slots missed while the host was closed), then as slots come. */
  start(): void {
    this.stopped = false;
    this.look();
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Something changed (a job finished, a schedule was set): look again soon, outside the caller's stack. */
  poke(): void {
    if (!this.stopped) this.arm(0);
  }

  /** One look at every scheduled job; arms the timer for the next. */
  look(): void {
    if (this.stopped) return;
    this.disarm();
    const now = this.clock.now();
    let wake = now + MAX_WAIT_MS;
    for (const job of this.target.scheduledJobs()) {
      const next = nextRun(job.schedule, job.handledThrough, now);
      if (!next.due) {
        wake = Math.min(wake, next.at);
        continue;
      }
      if (!job.runnable) continue;
      const started = this.target.runScheduled(job.id);
      if (started.kind === 'started') this.target.settleSchedule(job.id, now, null);
      else if (started.kind === 'failed') this.target.settleSchedule(job.id, now, started.error);
    }
    this.arm(Math.max(0, wake - now));
  }

  private arm(ms: number): void {
    this.disarm();
    this.handle = this.timers.set(() => {
      this.handle = null;
      this.look();
    }, ms);
  }

  private disarm(): void {
    if (this.handle !== null) this.timers.clear(this.handle);
    this.handle = null;
  }
}
