import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_WAIT_MS, Scheduler, type Clock, type ScheduledJob, type ScheduledStart, type ScheduleTarget, type Timers } from '../../../electron/host/scheduler.js';
import { ScheduleSchema } from '../../../shared/schedule.js';

process.env.TZ = 'Europe/Paris';

const at = (s: string): number => {
  const [day, time] = s.split(' ') as [string, string];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).getTime();
};

/** A clock moved by hand and a timer that fires only when the test moves the clock past it. */
class FakeTime implements Clock, Timers {
  private t: number;
  private pending: { fn: () => void; due: number; handle: number } | null = null;
  private handles = 0;
  constructor(start: number) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  set(fn: () => void, ms: number): unknown {
    this.pending = { fn, due: this.t + ms, handle: ++this.handles };
    return this.pending.handle;
  }
  clear(handle: unknown): void {
    if (this.pending?.handle === handle) this.pending = null;
  }
  /** When the armed timer fires, or null. */
  get wakesAt(): number | null {
    return this.pending?.due ?? null;
  }
  /** Moves the clock to `t`, firing the armed timer each time it comes due on the way. */
  advanceTo(t: number): void {
    while (this.pending && this.pending.due <= t) {
      const p = this.pending;
      this.pending = null;
      this.t = Math.max(this.t, p.due);
      p.fn();
    }
    this.t = t;
  }
}

/** Jobs as the host keeps them: a run holds its job until the test finishes it. */
class FakeJobs implements ScheduleTarget {
  readonly runs: { id: string; at: number }[] = [];
  readonly running = new Set<string>();
  busy = false;
  /** Runs end as soon as they start. */
  instant = false;
  failWith: string | null = null;
  readonly jobs = new Map<string, { schedule: ScheduledJob['schedule']; handledThrough: number; lastError: string | null }>();
  constructor(private readonly clock: Clock) {}
  scheduledJobs(): ScheduledJob[] {
    return [...this.jobs].map(([id, j]) => ({ id, schedule: j.schedule, handledThrough: j.handledThrough, runnable: !this.running.has(id) }));
  }
  runScheduled(id: string): ScheduledStart {
    // The host refuses a second run of a running job whatever the scheduler believes.
    if (this.running.has(id)) throw new Error(`${id} started while running`);
    if (this.busy) return { kind: 'busy' };
    if (this.failWith) return { kind: 'failed', error: this.failWith };
    if (!this.instant) this.running.add(id);
    this.runs.push({ id, at: this.clock.now() });
    return { kind: 'started' };
  }
  settleSchedule(id: string, through: number, error: string | null): void {
    const j = this.jobs.get(id)!;
    j.handledThrough = through;
    j.lastError = error;
  }
}

function setUp(now: string, jobs: Record<string, { every?: number; unit?: 'days' | 'weeks' | 'months'; at?: string; from?: string; handledThrough: string }>) {
  const time = new FakeTime(at(now));
  const target = new FakeJobs(time);
  for (const [id, j] of Object.entries(jobs)) {
    const schedule = ScheduleSchema.parse({ every: j.every ?? 1, unit: j.unit ?? 'days', at: j.at ?? '03:00', from: j.from ?? '2026-05-01' });
    target.jobs.set(id, { schedule, handledThrough: at(j.handledThrough), lastError: null });
  }
  const scheduler = new Scheduler(target, time, time);
  return { time, target, scheduler };
}

describe('scheduler', () => {
  it('runs a slot missed while the host was closed once at start, not once per missed slot', () => {
    // Last dealt with on May 2; the host starts again on May 5 at 10:00: slots of May 3, 4 and 5 went by.
    const { time, target, scheduler } = setUp('2026-05-05 10:00', { a: { handledThrough: '2026-05-02 09:00' } });
    scheduler.start();
    assert.deepEqual(target.runs, [{ id: 'a', at: at('2026-05-05 10:00') }]);
    target.running.delete('a');
    scheduler.poke();
    time.advanceTo(at('2026-05-05 10:01'));
    assert.equal(target.runs.length, 1, 'the missed slots are paid for by the one run');
    // Then the next slot, and only it.
    time.advanceTo(at('2026-05-06 02:59'));
    assert.equal(target.runs.length, 1);
    time.advanceTo(at('2026-05-06 03:00'));
    assert.deepEqual(target.runs.map((r) => r.at), [at('2026-05-05 10:00'), at('2026-05-06 03:00')]);
  });

  it('owes nothing for slots before the schedule was set', () => {
    const { time, target, scheduler } = setUp('2026-05-10 12:00', { a: { handledThrough: '2026-05-10 12:00' } });
    scheduler.start();
    assert.deepEqual(target.runs, []);
    assert.equal(time.wakesAt, at('2026-05-10 12:00') + MAX_WAIT_MS, 'it looks again within a minute');
    time.advanceTo(at('2026-05-11 03:00'));
    assert.equal(target.runs.length, 1);
  });

  it('never starts a second run of a job whose capture is in progress; the due run starts once when it ends', () => {
    const { time, target, scheduler } = setUp('2026-05-01 00:00', { a: { handledThrough: '2026-05-01 00:00' } });
    scheduler.start();
    time.advanceTo(at('2026-05-01 03:00'));
    assert.equal(target.runs.length, 1);
    // The capture runs for two days: the slots of May 2 and 3 come while it holds the archive.
    time.advanceTo(at('2026-05-03 12:00'));
    assert.equal(target.runs.length, 1, 'no run while one is in progress');
    assert.equal(target.jobs.get('a')!.handledThrough, at('2026-05-01 03:00'), 'the missed slots stay owed');
    // It finishes; the host pokes the scheduler: one run for both slots.
    target.running.delete('a');
    scheduler.poke();
    time.advanceTo(at('2026-05-03 12:00'));
    assert.deepEqual(target.runs.map((r) => r.at), [at('2026-05-01 03:00'), at('2026-05-03 12:00')]);
    target.running.delete('a');
    scheduler.poke();
    time.advanceTo(at('2026-05-04 02:00'));
    assert.equal(target.runs.length, 2);
  });

  it('tries a busy archive again later, and skips a slot whose run cannot start, saying why', () => {
    const { time, target, scheduler } = setUp('2026-05-01 00:00', { a: { handledThrough: '2026-05-01 00:00' } });
    target.busy = true;
    scheduler.start();
    time.advanceTo(at('2026-05-01 03:00'));
    assert.equal(target.runs.length, 0);
    target.busy = false;
    time.advanceTo(at('2026-05-01 03:01'));
    assert.deepEqual(target.runs.map((r) => r.at), [at('2026-05-01 03:01')], 'tried again within a minute');
    target.running.delete('a');
    target.failWith = 'the archive folder is gone';
    time.advanceTo(at('2026-05-02 03:00'));
    assert.equal(target.jobs.get('a')!.lastError, 'the archive folder is gone');
    assert.equal(target.jobs.get('a')!.handledThrough, at('2026-05-02 03:00'), 'the slot is skipped, not retried every minute');
    target.failWith = null;
    time.advanceTo(at('2026-05-02 12:00'));
    assert.equal(target.runs.length, 1);
  });

  it('keeps each job to its own slots and sleeps until the nearest', () => {
    const { time, target, scheduler } = setUp('2026-05-01 00:00', {
      daily: { handledThrough: '2026-05-01 00:00', at: '06:00' },
      weekly: { handledThrough: '2026-05-01 00:00', unit: 'weeks', at: '00:30', from: '2026-05-01' },
    });
    target.instant = true;
    // Half a minute past: slots are not on the minute-long looks' beat.
    time.advanceTo(at('2026-05-01 00:00') + 30_000);
    scheduler.start();
    assert.equal(time.wakesAt, at('2026-05-01 00:01') + 30_000);
    time.advanceTo(at('2026-05-08 01:00'));
    assert.deepEqual(
      target.runs.map((r) => `${r.id}@${new Date(r.at).getDate()} ${new Date(r.at).getHours()}h`),
      ['weekly@1 0h', 'daily@1 6h', 'daily@2 6h', 'daily@3 6h', 'daily@4 6h', 'daily@5 6h', 'daily@6 6h', 'daily@7 6h', 'weekly@8 0h'],
    );
    assert.ok(target.runs.every((r) => new Date(r.at).getMinutes() === (r.id === 'weekly' ? 30 : 0) && r.at % 60_000 === 0), 'each on its slot, not later');
  });

  it('does nothing once stopped', () => {
    const { time, target, scheduler } = setUp('2026-05-01 00:00', { a: { handledThrough: '2026-04-01 00:00' } });
    scheduler.stop();
    scheduler.poke();
    assert.equal(time.wakesAt, null);
    time.advanceTo(at('2026-06-01 00:00'));
    assert.deepEqual(target.runs, []);
  });
});
