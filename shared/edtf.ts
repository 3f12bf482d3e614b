/**
 * Dates as archivists write them in Dublin Core: the Extended Date/Time Format (EDTF, ISO 8601-2)
 * levels 0 and 1 (https://www.loc.gov/standards/datetime/). Accepted:
 * - a year, month or day: `2026`, `2026-05`, `2026-05-14`, or a time: `2026-05-14T09:30:00Z`;
 * - uncertain `?`, approximate `~`, or both `%`, after a date: `2026-05?`, `1950~`;
 * - unspecified digits: `201X`, `20XX`, `2026-XX`, `2026-05-XX`, `2026-XX-XX`;
 * - seasons `2026-21` to `2026-24`, years beyond four digits `Y170000002`, negative years `-0300`;
 * - intervals `start/end` of any of those, an open end `..` or an unknown one (empty): `2020/2026`,
 *   `2026-05-01/..`, `../1990`, `1985/`.
 */

const DATE_TIME = /^(-?\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(Z|[+-](0\d|1[0-4])(:?[0-5]\d)?)?$/;
const DATE = /^(Y-?\d{5,}|-?\d{4}|\d{3}X|\d{2}XX)(?:-(\d{2}|XX)(?:-(\d{2}|XX))?)?([?~%])?$/;

/** Days in a month of a year (proleptic Gregorian, as ISO 8601). */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The first day a single (non-interval) EDTF date can mean, as a sortable 'YYYYY-MM-DD'; null if invalid. */
function earliest(s: string): string | null {
  const t = DATE_TIME.exec(s);
  if (t) {
    const [, y, m, d] = t;
    return validDay(Number(y), Number(m), Number(d)) ? sortable(Number(y), Number(m), Number(d)) : null;
  }
  const p = DATE.exec(s);
  if (!p) return null;
  const [, yearText, month, day] = p as unknown as [string, string, string | undefined, string | undefined];
  const long = yearText.startsWith('Y');
  const unspecifiedYear = yearText.includes('X');
  const year = Number(yearText.replace('Y', '').replace(/X/g, '0'));
  // Long years and years with unspecified digits stand alone (`Y170000002-05` is level 2).
  if ((long || unspecifiedYear) && month !== undefined) return null;
  if (month === undefined) return sortable(year, 1, 1);
  if (month === 'XX') return day === undefined || day === 'XX' ? sortable(year, 1, 1) : null;
  const m = Number(month);
  if (m >= 21 && m <= 24) return day === undefined ? sortable(year, 1 + (m - 21) * 3, 1) : null;
  if (m < 1 || m > 12) return null;
  if (day === undefined || day === 'XX') return sortable(year, m, 1);
  return validDay(year, m, Number(day)) ? sortable(year, m, Number(day)) : null;
}

function validDay(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

function sortable(y: number, m: number, d: number): string {
  // Offset so that negative years sort before positive ones as plain strings.
  return `${String(y + 1e12).padStart(14, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Whether `s` is an EDTF level 0 or 1 date, date-time or interval (see above). */
export function isEdtfDate(s: string): boolean {
  const parts = s.split('/');
  if (parts.length === 1) return earliest(s) !== null;
  if (parts.length !== 2) return false;
  const [start, end] = parts as [string, string];
  const open = (p: string): boolean => p === '' || p === '..';
  if (open(start) && open(end)) return false;
  const a = open(start) ? '' : earliest(start);
  const b = open(end) ? '' : earliest(end);
  if (a === null || b === null) return false;
  // A start after the end is a typing mistake (the end's first possible day is compared, so 2026-05/2026 passes).
  return a === '' || b === '' || a.slice(0, 14) < b.slice(0, 14) || (a.slice(0, 14) === b.slice(0, 14) && a <= latest(b, end));
}

/** The last day the end of an interval can mean, at the precision it was written. */
function latest(earliestOfEnd: string, end: string): string {
  const precision = end.replace(/[?~%]$/, '').split('T')[0]!.split('-').filter((x) => x !== '').length;
  if (precision >= 3) return earliestOfEnd;
  return precision === 2 ? `${earliestOfEnd.slice(0, 17)}-31` : `${earliestOfEnd.slice(0, 14)}-12-31`;
}
