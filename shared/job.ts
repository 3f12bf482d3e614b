import { parseCidr } from './cidr.js';
import { z } from 'zod';
import { seedUrlProblem } from './seedUrl.js';
import { TemplateSchema } from './template.js';

/** Version of the tool, recorded in every archive it writes. */
export const HARVEST_VERSION = '0.1.0';


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

/** A seed: as httpUrl, and a mistyped one is told its likely fix. */
const seedUrl = z.string().superRefine((s, ctx) => {
  const problem = seedUrlProblem(s);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

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
    /**
     * Gap between the starts of two requests to one host. null: adaptive, twice the host's last
     * response time and at least ADAPTIVE_DELAY_FLOOR_MS; a number: that fixed gap (0 for none).
     * robots.txt Crawl-delay raises either.
     */
    delayMs: nonNegativeInt.nullable().default(null),
    respectRobots: z.boolean().default(true),
  })
  .strict();

/**
 * Politeness changed while a crawl runs (`harvest control`, the progress view): what is given
 * replaces the job's setting; the crawl applies it within a second and keeps it for later runs.
 */
export const LiveControlSchema = z
  .object({
    perHostConnections: PolitenessSchema.shape.perHostConnections.unwrap().optional(),
    delayMs: nonNegativeInt.nullable().optional(),
  })
  .strict()
  .refine((c) => c.perHostConnections !== undefined || c.delayMs !== undefined, 'give connections, a delay, or both');
export type LiveControl = z.infer<typeof LiveControlSchema>;

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

/** The least gap an adaptive delay leaves between two requests to one host. */
export const ADAPTIVE_DELAY_FLOOR_MS = 250;

/** A contact for site owners: an http(s) URL, a mailto: URL or a bare e-mail address. */
const EMAIL = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/;
const contact = z
  .string()
  .trim()
  .max(500)
  .refine((s) => s === '' || EMAIL.test(s.replace(/^mailto:/i, '')) || httpUrl.safeParse(s).success, {
    message: 'must be an http(s) URL or an e-mail address',
  });

/** Header names a job may not set: the fetcher's own, and what would break HTTP/1.1 framing. */
const RESERVED_HEADERS = new Set([
  'host', 'user-agent', 'accept-encoding', 'connection', 'content-length', 'transfer-encoding', 'keep-alive',
  'upgrade', 'expect', 'te', 'trailer', 'proxy-connection', 'cookie', 'authorization',
]);
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*)$/;
const headerLine = z
  .string()
  .trim()
  .refine((s) => HEADER_LINE.test(s), { message: "must read 'Name: value'" })
  .refine((s) => !RESERVED_HEADERS.has(s.slice(0, s.indexOf(':')).toLowerCase()), {
    message: 'sets a header Harvest sends itself (cookies and credentials have their own settings)',
  });

/** One cookie of a Netscape cookies.txt (what browsers' export extensions and curl write). */
export const CookieSchema = z
  .object({
    domain: z.string().min(1),
    /** The file's second column: also sent to subdomains of `domain`. */
    includeSubdomains: z.boolean(),
    path: z.string().startsWith('/'),
    /** Sent over https only. */
    secure: z.boolean(),
    /** Unix seconds; 0 for a session cookie. */
    expires: nonNegativeInt,
    name: z.string().min(1),
    value: z.string(),
  })
  .strict();

export const RequestSettingsSchema = z
  .object({
    /** Sent as Accept-Language (e.g. "fr, en;q=0.5"), so a site that negotiates languages answers in these; '' sends none. */
    acceptLanguage: z
      .string()
      .trim()
      .max(200)
      .refine((s) => /^[A-Za-z0-9*,;=. \t-]*$/.test(s), { message: 'must be language tags such as "fr, en;q=0.5"' })
      .default(''),
    /** Added after Harvest's product token and contact in the User-Agent. */
    userAgentSuffix: z
      .string()
      .trim()
      .max(200)
      .refine((s) => !/[\r\n]/.test(s), { message: 'must be one line' })
      .default(''),
    /** Further request headers, "Name: value" each, sent with every request. */
    headers: z.array(headerLine).default([]),
    /** Cookies sent where they match (domain, path, https), as imported from a cookies.txt. */
    cookies: z.array(CookieSchema).default([]),
    /**
     * HTTP basic authentication for staff-only sections, sent only to URLs under `urlPrefix` or,
     * when that is '', to the seeds' sites. '' username: none.
     */
    basicAuth: z
      .object({
        username: z.string().max(200).refine((s) => !s.includes(':'), { message: 'must not contain ":"' }).default(''),
        password: z.string().max(500).default(''),
        urlPrefix: z.union([z.literal(''), httpUrl]).default(''),
      })
      .strict()
      .default({ username: '', password: '', urlPrefix: '' }),
  })
  .strict();

export const RenderSettingsSchema = z
  .object({
    /** Load each HTML page in headless Chromium after its plain fetch and archive what it shows. */
    enabled: z.boolean().default(false),
    /** A Chromium-based browser's executable; null: HARVEST_CHROMIUM, then the usual places (see README). */
    browserPath: z.string().trim().min(1).nullable().default(null),
    /** Browser pages rendering at once. */
    pages: z.number().int().min(1).max(16).default(2),
    /** Per page, from navigation to capture; what the page shows by then is archived. */
    pageTimeoutMs: positiveInt.max(600_000).default(30_000),
    /** The most time spent waiting for the network to go quiet after loading and after each scroll step. */
    settleMs: positiveInt.max(120_000).default(3_000),
    /** V8 heap cap of each page's renderer process (--max-old-space-size); on Linux its resident memory is bounded at this plus 256 MB. */
    maxPageHeapMb: z.number().int().min(16).max(16_384).default(512),
    /** A full-page screenshot beside each thumbnail. */
    screenshots: z.boolean().default(false),
  })
  .strict();

export const JobSchema = z
  .object({
    name: z.string().trim().min(1).max(200).default('Untitled harvest'),
    seeds: z.array(seedUrl).min(1, { message: 'at least one seed URL is needed' }),
    scope: ScopeSchema.default(ScopeSchema.parse({})),
    limits: LimitsSchema.default(LimitsSchema.parse({})),
    politeness: PolitenessSchema.default(PolitenessSchema.parse({})),
    traps: TrapGuardsSchema.default(TrapGuardsSchema.parse({})),
    fetch: FetchSettingsSchema.default(FetchSettingsSchema.parse({})),
    warc: WarcSettingsSchema.default(WarcSettingsSchema.parse({})),
    render: RenderSettingsSchema.default(RenderSettingsSchema.parse({})),
    /** Fetch images, CSS, scripts, fonts and media from hosts outside the scope so pages look right offline. */
    offsiteRequisites: z.boolean().default(true),
    /**
     * Private, loopback and link-local networks (CIDR) the crawl may reach besides the seeds' own
     * hosts; every other host whose address lies in such a network is refused (see fetch/addressPolicy.ts).
     */
    allowNetworks: z.array(z.string().trim().refine((s) => parseCidr(s) !== null, { message: 'must be a network like 10.0.0.0/8 or fd00::/8' })).max(64).default([]),
    /**
     * How site owners reach the archivist (an http(s) URL, or an e-mail address, bare or mailto:),
     * sent in the User-Agent (an address also as From); null or '' for none. The app fills it from
     * its settings (the institution's contact); there is no default pointing at anyone else.
     */
    contactUrl: contact.nullable().default(null),
    /** What every request carries beyond Harvest's own headers. */
    request: RequestSettingsSchema.default(RequestSettingsSchema.parse({})),
    /** A focused harvest's template (best-first frontier, page filter, extraction); null: breadth-first, everything. */
    template: TemplateSchema.nullable().default(null),
  })
  .strict();

/** The app's settings, set once for every job it creates. */
export const AppSettingsSchema = z
  .object({
    /** The institution's contact for site owners (a URL or an e-mail address); new jobs take it. */
    contact: contact.nullable().default(null),
  })
  .strict();
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export type Scope = z.infer<typeof ScopeSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type Politeness = z.infer<typeof PolitenessSchema>;
export type TrapGuards = z.infer<typeof TrapGuardsSchema>;
export type FetchSettings = z.infer<typeof FetchSettingsSchema>;
export type WarcSettings = z.infer<typeof WarcSettingsSchema>;
export type RenderSettings = z.infer<typeof RenderSettingsSchema>;
export type Job = z.infer<typeof JobSchema>;
export type RequestSettings = z.infer<typeof RequestSettingsSchema>;
export type Cookie = z.infer<typeof CookieSchema>;
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

/** The job's contact as an e-mail address (mailto: removed), or null when it is a URL or unset. */
export function contactEmail(job: Pick<Job, 'contactUrl'>): string | null {
  const c = job.contactUrl?.trim() ?? '';
  const address = c.replace(/^mailto:/i, '');
  return c !== '' && EMAIL.test(address) ? address : null;
}

/** e.g. "Harvest/0.1.0 (web archiving; +mailto:archive@uni.example) Library-Project/2". */
export function userAgentFor(job: Pick<Job, 'contactUrl' | 'request'>): string {
  const email = contactEmail(job);
  const contactText = email !== null ? `mailto:${email}` : job.contactUrl?.trim() || null;
  const product = `Harvest/${HARVEST_VERSION} (web archiving${contactText ? `; +${contactText}` : ''})`;
  return job.request.userAgentSuffix ? `${product} ${job.request.userAgentSuffix}` : product;
}
