import type { CrawlCounts, FocusCounts } from './crawl.js';

/**
 * One vocabulary and one set of numbers for every screen and the command line: sizes in decimal SI
 * units (1 kB = 1,000 bytes, as file managers show them), counts with correct plurals, dates in the
 * reader's locale with the time zone named, and the progress figures (fetched, percentage of what is
 * known so far, time left) computed the same way everywhere.
 */

const SIZE_UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** `0 bytes`, `1 byte`, `999 bytes`, `1.2 kB`, `34 MB`, `1.5 GB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${Math.round(bytes)} bytes`;
  let value = bytes;
  let unit = 0;
  // Values from 100 up are shown whole, so 999.5 would read "1000": that is the next unit already.
  while (value >= 999.5 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 99.95 ? value.toFixed(1) : Math.round(value)} ${SIZE_UNITS[unit]}`;
}

/** A transfer rate in the same units: `0 bytes/s`, `850 kB/s`. */
export function formatByteRate(bytesPerSec: number): string {
  return `${formatBytes(bytesPerSec)}/s`;
}

/**
 * Whole numbers with thousands separators, the same in every locale so the CLI and the app agree.
 * Grouped by hand: the first toLocaleString of a process reads some 4.5 MB of ICU's locale data
 * into memory, a twentieth of a one-page crawl.
 */
export function formatCount(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return Math.round(n) < 0 ? `-${grouped}` : grouped;
}

/** English plurals: `plural(1, 'page')` is `1 page`, `plural(2, 'page')` `2 pages`, `plural(0, 'query', 'queries')` `0 queries`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Elapsed time as a clock: `0:07`, `12:04`, `1:02:03`. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

/** A duration in words, to the two largest units: `less than a second`, `45 s`, `3 min 20 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  const total = Math.round(Math.max(0, ms) / 1000);
  if (total < 1) return 'less than a second';
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return `${d} d${h ? ` ${h} h` : ''}`;
  if (h > 0) return `${h} h${m ? ` ${m} min` : ''}`;
  if (m > 0) return `${m} min${s ? ` ${s} s` : ''}`;
  return `${s} s`;
}

/**
 * A moment in the reader's locale with its time zone, e.g. `25 Nov 2026, 18:17 UTC` or
 * `Nov 25, 2026, 1:17 PM EST`. `locale` and `timeZone` are for tests; the app and CLI pass neither.
 */
export function formatDate(iso: string | null | undefined, opts: { locale?: string; timeZone?: string } = {}): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // dateStyle/timeStyle can't be combined with timeZoneName, so the fields are named one by one.
  return d.toLocaleString(opts.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(opts.timeZone !== undefined && { timeZone: opts.timeZone }),
  });
}

/** The counts everything derives from, named as the app and the CLI name them. */
export interface ProgressFigures {
  /** URLs with an outcome after a request: archived + redirects + HTTP errors + failed. */
  fetched: number;
  /** Still to fetch: queued + in flight. */
  remaining: number;
  /** fetched / (fetched + remaining), 0..1: a share of the URLs known so far, which grows as pages are parsed. */
  fraction: number;
  /** Whole percent, never 100 while anything remains. */
  percent: number;
  /** Estimated milliseconds left at the current rate, or null when it can't be said yet. */
  etaMs: number | null;
}

/** An estimate needs a few seconds of rate history; before that it would swing wildly. */
const ETA_AFTER_MS = 3_000;

export function progressFigures(counts: CrawlCounts, urlsPerSec: number, elapsedMs: number): ProgressFigures {
  const fetched = counts.archived + counts.redirects + counts.httpErrors + counts.failed;
  const remaining = counts.queued + counts.inFlight;
  const known = fetched + remaining;
  const fraction = known > 0 ? fetched / known : 0;
  const percent = remaining > 0 ? Math.min(99, Math.floor(fraction * 100)) : known > 0 ? 100 : 0;
  const etaMs = remaining === 0 ? 0 : urlsPerSec > 0 && elapsedMs >= ETA_AFTER_MS ? (remaining / urlsPerSec) * 1000 : null;
  return { fetched, remaining, fraction, percent, etaMs };
}

/** Time left as a person would say it: seconds under a minute, else whole minutes (hours and minutes past an hour). */
export function formatTimeLeft(etaMs: number): string {
  if (etaMs < 60_000) return formatDuration(etaMs);
  return formatDuration(Math.max(1, Math.round(etaMs / 60_000)) * 60_000);
}

/** `about 3 min left`, `less than a second left`, or `estimating time left…`. */
export function formatEta(etaMs: number | null): string {
  if (etaMs === null) return 'estimating time left…';
  if (etaMs < 1000) return 'less than a second left';
  return `about ${formatTimeLeft(etaMs)} left`;
}

/** The percentage as said everywhere: `42% of the 1,234 URLs found so far`. */
export function formatPercentOfKnown(f: ProgressFigures): string {
  return `${f.percent}% of the ${plural(f.fetched + f.remaining, 'URL')} found so far`;
}

/** The outcome counts in words, as the CLI prints them and the app's summary says them. */
export function countsSentence(c: CrawlCounts): string {
  const parts = [
    `${formatCount(c.archived)} archived`,
    plural(c.redirects, 'redirect'),
    plural(c.httpErrors, 'HTTP error'),
    `${formatCount(c.failed)} failed`,
    `${formatCount(c.skipped)} skipped`,
  ];
  if (c.queued + c.inFlight > 0) parts.push(`${formatCount(c.queued + c.inFlight)} queued`);
  return `${parts.join(', ')}; ${formatBytes(c.bytes)} received`;
}

/** A focused harvest's verdicts, as `harvest stats` and `harvest cluster status` show them. */
export function focusSentence(c: FocusCounts): string {
  return `focused: ${c.relevantPages} relevant, ${c.offTopicPages} off-topic, ${c.nearDuplicates} near-duplicates, harvest rate ${c.harvestRate === null ? '-' : `${(c.harvestRate * 100).toFixed(1)}%`}`;
}

/** The job's limits by the names the job form gives them, in its order. */
const LIMIT_LABELS: readonly (readonly [string, string, (v: number) => string])[] = [
  ['maxDepth', 'Max depth', formatCount],
  ['maxPages', 'Max pages', formatCount],
  ['maxBytes', 'Max size', formatBytes],
  ['maxDurationMs', 'Max duration', formatDuration],
];

/** `Max depth: none, Max pages: 5,000, Max size: 1.0 GB, Max duration: 2 h`. */
export function formatLimits(limits: Record<string, number | null>): string {
  const known = LIMIT_LABELS.filter(([key]) => key in limits).map(([key, label, show]) => {
    const v = limits[key];
    return `${label}: ${v === null || v === undefined ? 'none' : show(v)}`;
  });
  const others = Object.entries(limits)
    .filter(([key]) => !LIMIT_LABELS.some(([k]) => k === key))
    .map(([key, v]) => `${key}: ${v === null ? 'none' : formatCount(v)}`);
  return [...known, ...others].join(', ');
}
