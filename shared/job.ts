import { z } from 'zod';

/** Version of the tool, recorded in every archive it writes. */
export const HARVEST_VERSION = '0.1.0';

export const DEFAULT_CONTACT_URL = 'https://github.com/harvest-archiving/harvest#for-webmasters';

const httpUrl = z.string().refine(
  (s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be an absolute http:// or https:// URL' },
);

const regexSource = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid regular expression' },
);

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();

export const ScopeSchema = z
  .object({
    /**
     * host: only the seed's host; domain: the seed's registrable domain and its subdomains;
     * prefix: the seed's host and path prefix (the seed URL up to its last '/').
     */
    mode: z.enum(['host', 'domain', 'prefix']).default('host'),
    /** Regular expressions over the absolute URL; a match brings a URL into scope. */
    include: z.array(regexSource).default([]),
    /** Regular expressions over the absolute URL; a match takes a URL out of scope (wins over include). */
    exclude: z.array(regexSource).default([]),
  })
  .strict();

export const LimitsSchema = z
  .object({
    maxDepth: nonNegativeInt.nullable().default(null),
    maxPages: positiveInt.nullable().default(null),
    maxBytes: positiveInt.nullable().default(null),
    // Node timers overflow past 2^31-1 ms (24.8 days) and would fire at once.
    maxDurationMs: positiveInt.max(2_147_483_647).nullable().default(null),
  })
  .strict();

export const PolitenessSchema = z
  .object({
    perHostConnections: z.number().int().min(1).max(64).default(2),
    /** Minimum gap between the starts of two requests to one host; robots.txt Crawl-delay raises it. */
    delayMs: nonNegativeInt.default(0),
    respectRobots: z.boolean().default(true),
  })
  .strict();

export const TrapGuardsSchema = z
  .object({
    maxUrlLength: positiveInt.default(2048),
    /** Count of '/' in the URL's path. */
    maxPathSlashes: positiveInt.default(15),
    /** Times one path segment may occur in a path. */
    maxSegmentRepeats: positiveInt.default(3),
    maxQueryParams: positiveInt.default(12),
    /** Distinct query strings one path may produce. */
    maxQueryVariantsPerPath: positiveInt.default(500),
  })
  .strict();

export const FetchSettingsSchema = z
  .object({
    connectTimeoutMs: positiveInt.default(10_000),
    headersTimeoutMs: positiveInt.default(30_000),
    bodyIdleTimeoutMs: positiveInt.default(30_000),
    /** Whole-request deadline: a server dripping bytes never trips an idle timer, this catches it. */
    deadlineMs: positiveInt.default(120_000),
    maxResponseBytes: positiveInt.default(100 * 1024 * 1024),
    maxRedirects: nonNegativeInt.default(10),
    /**
     * Retries of a transient failure (a timeout, a reset, 408, 429, 5xx), each from the back of the
     * site's queue after a back-off; framing errors and refusals are not retried.
     */
    maxRetries: nonNegativeInt.default(2),
  })
  .strict();

export const WarcSettingsSchema = z
  .object({
    /** Record every exchange as WARC 1.1 while crawling: the archival record of the harvest. */
    enabled: z.boolean().default(true),
    maxFileBytes: positiveInt.default(1024 * 1024 * 1024),
  })
  .strict();

export const JobSchema = z
  .object({
    name: z.string().trim().min(1).max(200).default('Untitled harvest'),
    seeds: z.array(httpUrl).min(1, { message: 'at least one seed URL is needed' }),
    scope: ScopeSchema.default(ScopeSchema.parse({})),
    limits: LimitsSchema.default(LimitsSchema.parse({})),
    politeness: PolitenessSchema.default(PolitenessSchema.parse({})),
    traps: TrapGuardsSchema.default(TrapGuardsSchema.parse({})),
    fetch: FetchSettingsSchema.default(FetchSettingsSchema.parse({})),
    warc: WarcSettingsSchema.default(WarcSettingsSchema.parse({})),
    /** Fetch images, CSS, scripts, fonts and media from hosts outside the scope so pages look right offline. */
    offsiteRequisites: z.boolean().default(true),
    /** Where the site owner can learn about this crawl; goes into the User-Agent. */
    contactUrl: httpUrl.default(DEFAULT_CONTACT_URL),
  })
  .strict();

export type Scope = z.infer<typeof ScopeSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type Politeness = z.infer<typeof PolitenessSchema>;
export type TrapGuards = z.infer<typeof TrapGuardsSchema>;
export type FetchSettings = z.infer<typeof FetchSettingsSchema>;
export type WarcSettings = z.infer<typeof WarcSettingsSchema>;
export type Job = z.infer<typeof JobSchema>;
export type JobInput = z.input<typeof JobSchema>;

export interface JobIssue {
  /** Dotted path of the setting, e.g. 'limits.maxPages'; '' for the job as a whole. */
  path: string;
  message: string;
}

export class JobValidationError extends Error {
  constructor(readonly issues: JobIssue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
    this.name = 'JobValidationError';
  }
}

/** Parses untrusted job input, filling defaults; throws JobValidationError with readable messages. */
export function parseJob(input: unknown): Job {
  const r = JobSchema.safeParse(input);
  if (r.success) return r.data;
  throw new JobValidationError(r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
}

export function userAgentFor(job: Job): string {
  return `Harvest/${HARVEST_VERSION} (web archiving; +${job.contactUrl})`;
}
