import { z } from 'zod';

/**
 * A job's schedule: it runs again every N days, weeks or months at a time of day, counted from a
 * first day. Times are local to the host (the desktop app's machine, or the server `harvest serve`
 * runs on) and are computed on the calendar, not by adding hours, so 03:00 stays 03:00 across
 * daylight-saving changes.
 */

export const SCHEDULE_UNITS = ['days', 'weeks', 'months'] as const;
export type ScheduleUnit = (typeof SCHEDULE_UNITS)[number];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const ScheduleSchema = z
  .object({
    every: z.number().int().min(1, { message: 'must be at least 1' }).max(365, { message: 'must be at most 365' }),
    unit: z.enum(SCHEDULE_UNITS),
    /** Local time of day, 24-hour "HH:MM". */
    at: z.string().regex(TIME, { message: 'must be a time of day such as 03:00' }),
    /** The first run's day, "YYYY-MM-DD": it sets a weekly schedule's weekday and a monthly one's day of the month. */
    from: z.string().refine(isCalendarDay, { message: 'must be a day such as 2026-12-01' }),
  })
  .strict();
export type Schedule = z.infer<typeof ScheduleSchema>;

/** What a job summary says of its schedule. */
export interface ScheduleInfo {
  schedule: Schedule;
  /** The next run (ISO 8601): a time to come, or, when `due`, the slot whose run is waiting. */
  nextRunAt: string;
  /** A slot has come and its run waits until no capture of the archive is in progress. */
  due: boolean;
  /** When the last scheduled run started, if one did. */
  lastRunAt: string | null;
  /** Why the last slot's run could not start (it was skipped), if it could not. */
  lastError: string | null;
}

function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d;
}

/** The start (ms since the epoch) of slot k ≥ 0; slot 0 is `from` at `at`. */
export function slotTime(s: Schedule, k: number): number {
  const [y, mo, d] = s.from.split('-').map(Number) as [number, number, number];
  const [hh, mm] = s.at.split(':').map(Number) as [number, number];
  switch (s.unit) {
    case 'days':
      return new Date(y, mo - 1, d + k * s.every, hh, mm).getTime();
    case 'weeks':
      return new Date(y, mo - 1, d + 7 * k * s.every, hh, mm).getTime();
    case 'months': {
      // Counted from `from` each time, so the 31st gives Feb 28 (or 29), then Mar 31 again.
      const month = mo - 1 + k * s.every;
      const daysInMonth = new Date(y, month + 1, 0).getDate();
      return new Date(y, month, Math.min(d, daysInMonth), hh, mm).getTime();
    }
  }
}

const APPROX_UNIT_MS: Record<ScheduleUnit, number> = { days: 86_400_000, weeks: 7 * 86_400_000, months: 30.436875 * 86_400_000 };

/** The index of the first slot after `t`. */
function firstIndexAfter(s: Schedule, t: number): number {
  let k = Math.max(0, Math.floor((t - slotTime(s, 0)) / (APPROX_UNIT_MS[s.unit] * s.every)));
  // The estimate is off by a slot or two at most (month lengths, DST hours): step to the exact one.
  while (k > 0 && slotTime(s, k - 1) > t) k--;
  while (slotTime(s, k) <= t) k++;
  return k;
}

/** The first slot strictly after `t`. */
export function firstSlotAfter(s: Schedule, t: number): number {
  return slotTime(s, firstIndexAfter(s, t));
}

/** The latest slot at or before `t`, or null when the first is still to come. */
export function lastSlotAtOrBefore(s: Schedule, t: number): number | null {
  const k = firstIndexAfter(s, t);
  return k === 0 ? null : slotTime(s, k - 1);
}

/**
 * The run a schedule owes at `now`, given that every slot up to `handledThrough` has been dealt
 * with: the latest slot since then, however many were missed (one run, not one per slot), marked
 * due; else the next slot to come.
 */
export function nextRun(s: Schedule, handledThrough: number, now: number): { at: number; due: boolean } {
  const missed = lastSlotAtOrBefore(s, now);
  if (missed !== null && missed > handledThrough) return { at: missed, due: true };
  return { at: firstSlotAfter(s, Math.max(now, handledThrough)), due: false };
}
