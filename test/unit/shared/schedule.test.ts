import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstSlotAfter, lastSlotAtOrBefore, nextRun, ScheduleSchema, slotTime, type Schedule } from '../../../shared/schedule.js';

// Each test file runs in its own process: this zone (daylight saving on the last Sundays of March
// and October) holds for every date below.
process.env.TZ = 'Europe/Paris';

const schedule = (over: Partial<Schedule>): Schedule => ScheduleSchema.parse({ every: 1, unit: 'days', at: '03:00', from: '2026-01-01', ...over });
/** A local time as its own fields read, e.g. "2026-03-29 03:00". */
const local = (ms: number): string => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};
const at = (s: string): number => {
  const [day, time] = s.split(' ') as [string, string];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).getTime();
};

describe('schedule slots', () => {
  it('validates what is saved: a positive count, a unit, a time of day and a real first day', () => {
    assert.equal(ScheduleSchema.safeParse({ every: 2, unit: 'weeks', at: '23:59', from: '2026-02-28' }).success, true);
    for (const bad of [
      { every: 0, unit: 'days', at: '03:00', from: '2026-01-01' },
      { every: 1.5, unit: 'days', at: '03:00', from: '2026-01-01' },
      { every: 1, unit: 'years', at: '03:00', from: '2026-01-01' },
      { every: 1, unit: 'days', at: '24:00', from: '2026-01-01' },
      { every: 1, unit: 'days', at: '3:00', from: '2026-01-01' },
      { every: 1, unit: 'days', at: '03:00', from: '2026-02-30' },
      { every: 1, unit: 'days', at: '03:00', from: '2026-01-01', cron: '* * * * *' },
    ]) {
      assert.equal(ScheduleSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('every N days keeps the local time of day across both daylight-saving changes', () => {
    const s = schedule({ every: 1, from: '2026-03-27' });
    assert.deepEqual([0, 1, 2, 3].map((k) => local(slotTime(s, k))), ['2026-03-27 03:00', '2026-03-28 03:00', '2026-03-29 03:00', '2026-03-30 03:00']);
    // The day of the change is 23 hours long: a fixed 24-hour step would drift to 04:00.
    assert.equal(slotTime(s, 3) - slotTime(s, 2), 24 * 3_600_000);
    assert.equal(slotTime(s, 2) - slotTime(s, 1), 23 * 3_600_000);
    const autumn = schedule({ every: 3, from: '2026-10-22' });
    assert.deepEqual([0, 1, 2].map((k) => local(slotTime(autumn, k))), ['2026-10-22 03:00', '2026-10-25 03:00', '2026-10-28 03:00']);
  });

  it('a time that does not exist on the spring change day runs an hour later, that day only', () => {
    const s = schedule({ at: '02:30', from: '2026-03-28' });
    assert.deepEqual([0, 1, 2].map((k) => local(slotTime(s, k))), ['2026-03-28 02:30', '2026-03-29 03:30', '2026-03-30 02:30']);
  });

  it('every N weeks keeps the first day’s weekday', () => {
    const s = schedule({ every: 2, unit: 'weeks', at: '22:15', from: '2026-03-16' });
    assert.deepEqual([0, 1, 2].map((k) => local(slotTime(s, k))), ['2026-03-16 22:15', '2026-03-30 22:15', '2026-04-13 22:15']);
    assert.deepEqual([0, 1, 2].map((k) => new Date(slotTime(s, k)).getDay()), [1, 1, 1]);
  });

  it('every month on the 31st falls on the last day of shorter months and goes back to the 31st', () => {
    const s = schedule({ unit: 'months', from: '2026-01-31' });
    assert.deepEqual(
      [0, 1, 2, 3, 12, 13].map((k) => local(slotTime(s, k))),
      ['2026-01-31 03:00', '2026-02-28 03:00', '2026-03-31 03:00', '2026-04-30 03:00', '2027-01-31 03:00', '2027-02-28 03:00'],
    );
    const leap = schedule({ every: 3, unit: 'months', from: '2027-11-30' });
    assert.deepEqual([0, 1, 2].map((k) => local(slotTime(leap, k))), ['2027-11-30 03:00', '2028-02-29 03:00', '2028-05-30 03:00']);
  });

  it('finds the next slot and the latest missed one, years on and at exact slot times', () => {
    const s = schedule({ unit: 'months', from: '2026-01-31' });
    assert.equal(lastSlotAtOrBefore(s, at('2026-01-31 02:59')), null);
    assert.equal(local(firstSlotAfter(s, at('2026-01-01 00:00'))), '2026-01-31 03:00');
    assert.equal(local(firstSlotAfter(s, at('2026-01-31 03:00'))), '2026-02-28 03:00', 'strictly after');
    assert.equal(local(lastSlotAtOrBefore(s, at('2026-01-31 03:00'))!), '2026-01-31 03:00');
    assert.equal(local(lastSlotAtOrBefore(s, at('2031-07-15 12:00'))!), '2031-06-30 03:00');
    assert.equal(local(firstSlotAfter(s, at('2031-07-15 12:00'))), '2031-07-31 03:00');
    const daily = schedule({ every: 5, from: '2026-01-01' });
    assert.equal(local(firstSlotAfter(daily, at('2036-01-01 00:00'))), '2036-01-04 03:00');
    assert.equal(local(lastSlotAtOrBefore(daily, at('2036-01-01 00:00'))!), '2035-12-30 03:00');
  });

  it('owes one run for any number of missed slots, then the next slot to come', () => {
    const s = schedule({ from: '2026-05-01' });
    const handled = at('2026-05-02 09:00');
    // Closed for three days: three slots went by, one run is owed, for the latest.
    const owed = nextRun(s, handled, at('2026-05-05 10:00'));
    assert.deepEqual({ at: local(owed.at), due: owed.due }, { at: '2026-05-05 03:00', due: true });
    // Once that run has started (everything up to now dealt with), the next is tomorrow's.
    const after = nextRun(s, at('2026-05-05 10:00'), at('2026-05-05 10:00'));
    assert.deepEqual({ at: local(after.at), due: after.due }, { at: '2026-05-06 03:00', due: false });
  });
});
