import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { CookiesTxtError, parseCookiesTxt } from '../../shared/cookiesTxt.js';
import { parseJob, type Cookie, type Job, type JobInput, type JobValidationError } from '../../shared/job.js';
import { firstSeedOf, scopeSeedsFor } from '../engine/crawl/seedList.js';
import { canonicalize } from '../engine/url/canonical.js';
import { NOT_A_WEB_ADDRESS, seedUrlProblem } from '../../shared/seedUrl.js';
import { readTemplateFile } from './templateFile.js';
import { parseCommandArgs, UsageError } from './usage.js';

/**
 * The crawl options of the command line and the job they make, shared by `harvest crawl` and
 * `harvest cluster init` (the same job, run by one machine or by several).
 */

/** Job settings by the flag that sets them, so a validation error names what the user typed. */
const FLAG_FOR_SETTING: Record<string, string> = {
  name: '--name',
  seeds: '<url>',
  contactUrl: '--contact',
  'scope.mode': '--scope',
  'scope.include': '--include',
  'scope.exclude': '--exclude',
  'limits.maxDepth': '--max-depth',
  'limits.maxPages': '--max-pages',
  'limits.maxBytes': '--max-bytes',
  'limits.maxDurationMs': '--max-duration',
  'politeness.perHostConnections': '--connections',
  'politeness.delayMs': '--delay-ms',
  'traps.maxUrlLength': '--max-url-length',
  'traps.maxPathSlashes': '--max-path-slashes',
  'traps.maxSegmentRepeats': '--max-segment-repeats',
  'traps.maxQueryParams': '--max-query-params',
  'traps.maxQueryVariantsPerPath': '--max-query-variants',
  'fetch.maxResponseBytes': '--max-response-bytes',
  'fetch.deadlineMs': '--deadline-ms',
  'request.acceptLanguage': '--accept-language',
  'request.userAgentSuffix': '--user-agent-suffix',
  'request.headers': '--header',
  'request.basicAuth.username': '--auth-user',
  'request.basicAuth.urlPrefix': '--auth-prefix',
  'render.browserPath': '--browser-path',
  'render.pages': '--render-pages',
  'render.pageTimeoutMs': '--page-timeout',
};

export function describeJobError(e: JobValidationError): string {
  return e.issues
    .map((i) => {
      const setting = i.path.replace(/\.\d+$/, '');
      const flag = FLAG_FOR_SETTING[setting];
      return flag ? `${flag}: ${i.message}` : i.path ? `${i.path}: ${i.message}` : i.message;
    })
    .join('; ');
}

export const CRAWL_OPTIONS = {
  out: { type: 'string', short: 'o' },
  name: { type: 'string' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-depth': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-bytes': { type: 'string' },
  'max-duration': { type: 'string' },
  connections: { type: 'string' },
  'delay-ms': { type: 'string' },
  'ignore-robots': { type: 'boolean' },
  'no-offsite-requisites': { type: 'boolean' },
  'allow-network': { type: 'string', multiple: true },
  'no-warc': { type: 'boolean' },
  contact: { type: 'string' },
  'accept-language': { type: 'string' },
  'user-agent-suffix': { type: 'string' },
  header: { type: 'string', multiple: true },
  cookies: { type: 'string' },
  'auth-user': { type: 'string' },
  'auth-prefix': { type: 'string' },
  'max-url-length': { type: 'string' },
  'max-path-slashes': { type: 'string' },
  'max-segment-repeats': { type: 'string' },
  'max-query-params': { type: 'string' },
  'max-query-variants': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'deadline-ms': { type: 'string' },
  'seeds-file': { type: 'string' },
  template: { type: 'string' },
  render: { type: 'boolean' },
  'browser-path': { type: 'string' },
  'render-pages': { type: 'string' },
  'page-timeout': { type: 'string' },
  screenshots: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'events-jsonl': { type: 'string' },
} satisfies ParseArgsConfig['options'];

export function int(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${flag} needs a whole number, got '${v}'`, 'crawl');
  return Number(v);
}

export function checkSeeds(urls: string[], seedsFile: string | undefined): void {
  if (urls.length === 0 && seedsFile === undefined) throw new UsageError('crawl needs at least one seed URL', 'crawl');
  for (const u of urls) {
    let ok = false;
    try {
      const p = new URL(u);
      ok = (p.protocol === 'http:' || p.protocol === 'https:') && p.hostname !== '' && canonicalize(u) !== null;
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`invalid URL '${u}': ${seedUrlProblem(u) ?? NOT_A_WEB_ADDRESS}`, 'crawl');
  }
}

/**
 * The job of `crawl` and `cluster init`. With a seed list, the list is streamed, never held: read to
 * validate it and find the few seeds that define the scope (kept in the job); the caller reads it
 * again to queue every URL.
 */
export async function jobWithSeeds(
  positionals: string[],
  seedsFile: string | undefined,
  v: ReturnType<typeof parseCommandArgs<typeof CRAWL_OPTIONS>>['values'],
): Promise<Job> {
  if (seedsFile === undefined) return parseJob(jobFromFlags(positionals, v));
  const flagsJob = parseJob(jobFromFlags([...positionals, await firstSeedOf(seedsFile)], v));
  return { ...flagsJob, seeds: await scopeSeedsFor(seedsFile, flagsJob.seeds, flagsJob.scope) };
}

export function jobFromFlags(seeds: string[], v: ReturnType<typeof parseCommandArgs<typeof CRAWL_OPTIONS>>['values']): JobInput {
  const durationS = int(v['max-duration'], 'max-duration');
  const pageTimeoutS = int(v['page-timeout'], 'page-timeout');
  for (const flag of ['browser-path', 'render-pages', 'page-timeout', 'screenshots'] as const) {
    if (v[flag] !== undefined && !v.render) throw new UsageError(`--${flag} only applies with --render`);
  }
  return {
    seeds,
    ...(v.name !== undefined && { name: v.name }),
    ...(v.contact !== undefined && { contactUrl: v.contact }),
    offsiteRequisites: !v['no-offsite-requisites'],
    allowNetworks: v['allow-network'] ?? [],
    ...(v.template !== undefined && { template: readTemplateFile(v.template) }),
    warc: { enabled: !v['no-warc'] },
    scope: {
      ...(v.scope !== undefined && { mode: v.scope as 'host' }),
      include: v.include ?? [],
      exclude: v.exclude ?? [],
    },
    limits: {
      maxDepth: int(v['max-depth'], 'max-depth') ?? null,
      maxPages: int(v['max-pages'], 'max-pages') ?? null,
      maxBytes: int(v['max-bytes'], 'max-bytes') ?? null,
      maxDurationMs: durationS === undefined ? null : durationS * 1000,
    },
    politeness: {
      ...(v.connections !== undefined && { perHostConnections: int(v.connections, 'connections') }),
      ...(v['delay-ms'] !== undefined && { delayMs: int(v['delay-ms'], 'delay-ms') }),
      respectRobots: !v['ignore-robots'],
    },
    traps: {
      ...(v['max-url-length'] !== undefined && { maxUrlLength: int(v['max-url-length'], 'max-url-length') }),
      ...(v['max-path-slashes'] !== undefined && { maxPathSlashes: int(v['max-path-slashes'], 'max-path-slashes') }),
      ...(v['max-segment-repeats'] !== undefined && {
        maxSegmentRepeats: int(v['max-segment-repeats'], 'max-segment-repeats'),
      }),
      ...(v['max-query-params'] !== undefined && { maxQueryParams: int(v['max-query-params'], 'max-query-params') }),
      ...(v['max-query-variants'] !== undefined && {
        maxQueryVariantsPerPath: int(v['max-query-variants'], 'max-query-variants'),
      }),
    },
    request: requestFromFlags(v),
    fetch: {
      ...(v['max-response-bytes'] !== undefined && {
        maxResponseBytes: int(v['max-response-bytes'], 'max-response-bytes'),
      }),
      ...(v['deadline-ms'] !== undefined && { deadlineMs: int(v['deadline-ms'], 'deadline-ms') }),
    },
    render: {
      enabled: v.render ?? false,
      ...(v['browser-path'] !== undefined && { browserPath: path.resolve(v['browser-path']) }),
      ...(v['render-pages'] !== undefined && { pages: int(v['render-pages'], 'render-pages') }),
      ...(pageTimeoutS !== undefined && { pageTimeoutMs: pageTimeoutS * 1000 }),
      ...(v.screenshots && { screenshots: true }),
    },
  };
}

/** The job's request settings from the flags; the cookies file is read here, the password from the environment. */
function requestFromFlags(v: ReturnType<typeof parseCommandArgs<typeof CRAWL_OPTIONS>>['values']): JobInput['request'] {
  let cookies: Cookie[] = [];
  if (v.cookies !== undefined) {
    try {
      cookies = parseCookiesTxt(readFileSync(v.cookies, 'utf8'));
    } catch (e) {
      const why = e instanceof CookiesTxtError ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
      throw new UsageError(`--cookies: cannot read ${v.cookies}: ${why}`);
    }
  }
  const password = process.env.HARVEST_AUTH_PASSWORD;
  if (v['auth-user'] !== undefined && password === undefined) throw new UsageError('--auth-user needs the password in HARVEST_AUTH_PASSWORD');
  return {
    ...(v['accept-language'] !== undefined && { acceptLanguage: v['accept-language'] }),
    ...(v['user-agent-suffix'] !== undefined && { userAgentSuffix: v['user-agent-suffix'] }),
    headers: v.header ?? [],
    cookies,
    basicAuth: { username: v['auth-user'] ?? '', password: v['auth-user'] !== undefined ? (password ?? '') : '', urlPrefix: v['auth-prefix'] ?? '' },
  };
}

