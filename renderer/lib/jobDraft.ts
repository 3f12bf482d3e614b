import type { Job, JobIssue } from '../../shared/job.js';
import { JobValidationError, parseJob } from '../../shared/job.js';

/**
 * The job form's model: one text/boolean value per setting, keyed by the setting's dotted path so
 * that JobIssue paths (from the local parseJob or the host's 'invalid-job' reply) land on fields.
 */
export type FieldKind = 'text' | 'lines' | 'int' | 'bool' | 'scope' | 'password' | 'cookies';

export interface FieldDef {
  path: string;
  label: string;
  kind: FieldKind;
  group: 'Site' | 'Scope' | 'Limits' | 'Politeness' | 'Trap guards' | 'Requisites and record' | 'Requests' | 'Rendering';
  /** Empty means "no limit" (null). */
  nullable?: boolean;
  /** What an empty nullable field means, if not "no limit". */
  nullLabel?: string;
  /** Shown value × scale = stored value, e.g. seconds shown for milliseconds stored. */
  scale?: number;
  unit?: string;
  help?: string;
}

export const FIELDS: FieldDef[] = [
  { path: 'name', label: 'Name', kind: 'text', group: 'Site' },
  { path: 'seeds', label: 'Seed URLs', kind: 'lines', group: 'Site', help: 'One URL per line, starting with http:// or https://' },
  { path: 'scope.mode', label: 'Scope', kind: 'scope', group: 'Scope' },
  { path: 'scope.include', label: 'Include (regular expressions)', kind: 'lines', group: 'Scope', help: 'One per line; a matching URL is in scope' },
  { path: 'scope.exclude', label: 'Exclude (regular expressions)', kind: 'lines', group: 'Scope', help: 'One per line; wins over include' },
  { path: 'limits.maxDepth', label: 'Max depth', kind: 'int', group: 'Limits', nullable: true },
  { path: 'limits.maxPages', label: 'Max pages', kind: 'int', group: 'Limits', nullable: true },
  { path: 'limits.maxBytes', label: 'Max size', kind: 'int', group: 'Limits', nullable: true, scale: 1_000_000, unit: 'MB' },
  { path: 'limits.maxDurationMs', label: 'Max duration', kind: 'int', group: 'Limits', nullable: true, scale: 60_000, unit: 'min' },
  { path: 'politeness.perHostConnections', label: 'Connections per host', kind: 'int', group: 'Politeness' },
  {
    path: 'politeness.delayMs',
    label: 'Delay between requests',
    kind: 'int',
    group: 'Politeness',
    unit: 'ms',
    nullable: true,
    nullLabel: 'adaptive',
    help: 'Empty: adaptive, twice the last response time and at least 250 ms',
  },
  { path: 'politeness.respectRobots', label: 'Obey robots.txt', kind: 'bool', group: 'Politeness' },
  { path: 'traps.maxUrlLength', label: 'Max URL length', kind: 'int', group: 'Trap guards' },
  { path: 'traps.maxPathSlashes', label: 'Max slashes in path', kind: 'int', group: 'Trap guards' },
  { path: 'traps.maxSegmentRepeats', label: 'Max repeats of a path segment', kind: 'int', group: 'Trap guards' },
  { path: 'traps.maxQueryParams', label: 'Max query parameters', kind: 'int', group: 'Trap guards' },
  { path: 'traps.maxQueryVariantsPerPath', label: 'Max query variants per path', kind: 'int', group: 'Trap guards' },
  { path: 'offsiteRequisites', label: 'Fetch images, styles and scripts from other hosts', kind: 'bool', group: 'Requisites and record' },
  { path: 'allowNetworks', label: 'Private networks allowed', kind: 'lines', group: 'Requisites and record', help: "One network per line, e.g. 10.20.0.0/16; without one, only the seeds' own hosts may be on a private or local network" },
  { path: 'warc.enabled', label: 'Record WARC files', kind: 'bool', group: 'Requisites and record' },
  { path: 'contactUrl', label: 'Contact (URL or e-mail, sent to sites)', kind: 'text', group: 'Requests', help: 'New jobs take the institution contact from Settings' },
  { path: 'request.acceptLanguage', label: 'Languages (Accept-Language)', kind: 'text', group: 'Requests', help: 'e.g. fr, en;q=0.5 — empty sends none' },
  { path: 'request.userAgentSuffix', label: 'User-Agent suffix', kind: 'text', group: 'Requests' },
  { path: 'request.headers', label: 'Extra headers', kind: 'lines', group: 'Requests', help: "One 'Name: value' per line" },
  { path: 'request.cookies', label: 'Cookies', kind: 'cookies', group: 'Requests', help: 'Import a cookies.txt (Netscape format)' },
  { path: 'request.basicAuth.username', label: 'Basic auth user', kind: 'text', group: 'Requests', help: "Sent only to the seeds' sites, or under the URL prefix below" },
  { path: 'request.basicAuth.password', label: 'Basic auth password', kind: 'password', group: 'Requests', help: 'Kept out of the WARC files and exports' },
  { path: 'request.basicAuth.urlPrefix', label: 'Basic auth URL prefix', kind: 'text', group: 'Requests' },
  {
    path: 'render.enabled',
    label: 'Render pages in a browser',
    kind: 'bool',
    group: 'Rendering',
    help: 'Archives what JavaScript builds, with a thumbnail of each page; needs Chromium, Chrome or Edge',
  },
  { path: 'render.pages', label: 'Pages rendering at once', kind: 'int', group: 'Rendering' },
  { path: 'render.pageTimeoutMs', label: 'Time limit per page', kind: 'int', group: 'Rendering', scale: 1000, unit: 's' },
  { path: 'render.screenshots', label: 'Keep a full-page screenshot of each page', kind: 'bool', group: 'Rendering' },
];

export type JobDraft = Record<string, string | boolean>;

function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    const next = o[k];
    o = o[k] = next && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {};
  }
  o[keys[keys.length - 1] as string] = value;
}

/** The form's values for a job (or for the defaults and no seeds, for a new job). */
export function draftFromJob(job: Partial<Job>): JobDraft {
  const draft: JobDraft = {};
  for (const f of FIELDS) {
    const v = getPath(job, f.path);
    if (f.kind === 'bool') draft[f.path] = v === true;
    else if (f.kind === 'lines') draft[f.path] = Array.isArray(v) ? v.join('\n') : '';
    else if (f.kind === 'int') draft[f.path] = typeof v === 'number' ? String(v / (f.scale ?? 1)) : '';
    else if (f.kind === 'cookies') draft[f.path] = JSON.stringify(Array.isArray(v) ? v : []);
    else draft[f.path] = typeof v === 'string' ? v : '';
  }
  return draft;
}

/** A default as the form shows it, e.g. "2", "no limit". */
export function describeDefault(field: FieldDef, defaults: Omit<Job, 'seeds'> | null): string | null {
  if (!defaults || field.path === 'seeds') return null;
  const v = getPath(defaults, field.path);
  // Null is "no limit" only for a limit; an unset text (the contact) has none.
  if (v === null) return field.nullLabel ?? (field.nullable ? 'no limit' : 'none');
  if (field.kind === 'password' || field.kind === 'cookies') return null;
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (typeof v === 'number') return `${v / (field.scale ?? 1)}${field.unit ? ` ${field.unit}` : ''}`;
  if (Array.isArray(v)) return v.length ? v.join(', ') : 'none';
  return typeof v === 'string' ? v : null;
}

const splitLines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/**
 * The job input for the host, built over `base` (so settings the form doesn't show survive an
 * edit), with the issues found locally: number syntax here, everything else by parseJob, the same
 * schema the host applies.
 */
export function draftToInput(draft: JobDraft, base: Record<string, unknown> = {}): { input: Record<string, unknown>; issues: JobIssue[] } {
  const input: Record<string, unknown> = structuredClone(base);
  const issues: JobIssue[] = [];
  for (const f of FIELDS) {
    const raw = draft[f.path];
    if (f.kind === 'bool') setPath(input, f.path, raw === true);
    else if (typeof raw !== 'string') continue;
    else if (f.kind === 'lines') setPath(input, f.path, splitLines(raw));
    else if (f.kind === 'cookies') setPath(input, f.path, JSON.parse(raw) as unknown);
    else if (f.kind === 'int') {
      const t = raw.trim();
      if (t === '') {
        if (f.nullable) setPath(input, f.path, null);
        else issues.push({ path: f.path, message: 'is required' });
      } else if (!/^\d+(\.\d+)?$/.test(t)) issues.push({ path: f.path, message: 'must be a number, 0 or more' });
      else setPath(input, f.path, Math.round(Number(t) * (f.scale ?? 1)));
    } else if (f.kind === 'text' && f.nullable && raw.trim() === '') setPath(input, f.path, null);
    else setPath(input, f.path, f.kind === 'text' ? raw.trim() : raw);
  }
  // Fields that failed above keep their previous value here, so the schema judges all the others.
  try {
    parseJob(input);
  } catch (err) {
    if (!(err instanceof JobValidationError)) throw err;
    const reported = new Set(issues.map((i) => i.path));
    issues.push(...err.issues.filter((i) => !reported.has(i.path)));
  }
  return { input, issues };
}

/**
 * The messages to show per field: an issue on 'seeds.2' belongs to the seeds field (as "line 3: ..."),
 * one whose path matches no field goes under '' (the whole form).
 */
export function issuesByField(issues: JobIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = FIELDS.find((f) => issue.path === f.path || issue.path.startsWith(`${f.path}.`));
    const key = field?.path ?? '';
    const rest = field && issue.path !== field.path ? issue.path.slice(field.path.length + 1) : '';
    const message = /^\d+$/.test(rest) ? `line ${Number(rest) + 1}: ${issue.message}` : issue.path && !field ? `${issue.path}: ${issue.message}` : issue.message;
    (out[key] ??= []).push(message);
  }
  return out;
}
