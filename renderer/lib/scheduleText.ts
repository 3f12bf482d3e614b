import type { JobStatus } from '../../shared/appViews.js';
import type { Schedule } from '../../shared/schedule.js';

const UNIT: Record<Schedule['unit'], [string, string]> = { days: ['day', 'days'], weeks: ['week', 'weeks'], months: ['month', 'months'] };

/** e.g. "Every day at 03:00", "Every 2 weeks on Monday at 22:15", "Every month on the 31st (or the month's last day) at 03:00". */
export function describeSchedule(s: Schedule): string {
  const [one, many] = UNIT[s.unit];
  const every = s.every === 1 ? `Every ${one}` : `Every ${s.every} ${many}`;
  const [y, m, d] = s.from.split('-').map(Number) as [number, number, number];
  if (s.unit === 'weeks') {
    const weekday = new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'long' });
    return `${every} on ${weekday} at ${s.at}`;
  }
  if (s.unit === 'months') return `${every} on the ${ordinal(d)}${d > 28 ? " (or the month's last day)" : ''} at ${s.at}`;
  return `${every} at ${s.at}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Why a due scheduled run has not started, by the job's status; null when it is about to. */
export function dueReason(status: JobStatus): string | null {
  switch (status) {
    case 'running':
    case 'pausing':
      return 'it starts when the capture in progress finishes';
    case 'paused':
    case 'interrupted':
    case 'failed':
      return 'it starts once this capture is resumed and finishes (or cancel the capture)';
    case 'cancelled':
      return null;
    default:
      return 'it is starting';
  }
}

/** Today in the reader's calendar, "YYYY-MM-DD": a new schedule's first day. */
export function todayLocal(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}
