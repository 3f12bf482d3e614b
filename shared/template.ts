import { z } from 'zod';
import { backtrackingRisk } from './regexRisk.js';

/**
 * A focused-harvest template: what the crawl looks for (topic keywords), which links lead there
 * (filter levels), how listings continue (next-page labels), what to pull out of the final pages
 * (extraction fields) and when two pages say the same thing (near-duplicates). Stored with the job,
 * so a resumed crawl keeps it. The schema is documented in README ("Focused harvests").
 */

/** Labels of a "next page" link when the template gives none. */
export const DEFAULT_NEXT_PAGE_LABELS = ['next', 'next page', '›', '»', '下一页', '下页', 'suivant', 'weiter'] as const;

const regexSource = z
  .string()
  .refine(
    (s) => {
      try {
        new RegExp(s, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { message: 'is not a valid regular expression' },
  )
  .superRefine((s, ctx) => {
    // Extraction runs it over whole pages: one that can backtrack exponentially would stall the crawl.
    const risk = backtrackingRisk(s);
    if (risk !== null) ctx.addIssue({ code: 'custom', message: `can take too long on a page: ${risk}` });
  });

const word = z.string().trim().min(1, { message: 'must not be empty' });

/** A keyword or phrase: a bare string (weight 1), or a term with its weight and synonyms. */
export const TopicKeywordSchema = z.union([
  word,
  z
    .object({
      term: word,
      weight: z.number().positive().max(100).default(1),
      synonyms: z.array(word).default([]),
    })
    .strict(),
]);

export const TopicSchema = z
  .object({
    keywords: z.array(TopicKeywordSchema).min(1, { message: 'needs at least one keyword' }),
    /** Pages scoring below it are recorded as off-topic. */
    threshold: z.number().min(0).max(1).default(0.3),
  })
  .strict();

export const ExtractFieldSchema = z
  .object({
    /** Labels that name the field on a page, any language. */
    keywords: z.array(word).min(1, { message: 'needs at least one keyword' }),
    synonyms: z.array(word).default([]),
    /** The value must match it (the first match is taken); it also finds values no label names. */
    regex: regexSource.optional(),
  })
  .strict();

export const NearDuplicateSchema = z
  .object({
    /** Pages whose 64-bit SimHashes differ in at most this many bits are near-duplicates. */
    maxHamming: z.number().int().min(0).max(16).default(10),
    /** Words per shingle. */
    shingle: z.number().int().min(1).max(8).default(3),
  })
  .strict();

export const CrawlProbabilitySchema = z
  .object({
    /** Crawl each seed with probability P = 1 − (s + f)/(2n); seeds skipped are tried in the next run. */
    enabled: z.boolean().default(false),
    /** Seed of the random generator, so a run's choices can be repeated. */
    randomSeed: z.number().int().nonnegative().default(1),
  })
  .strict();

/** A search URL pattern: `{q}` takes a search keyword, `{page}` the result page number. */
const searchPattern = z
  .string()
  .refine((s) => s.includes('{q}'), { message: 'must contain {q} where the search keywords go' })
  .refine(
    (s) => {
      try {
        return /^https?:$/.test(new URL(s.replaceAll('{q}', 'q').replaceAll('{page}', '1')).protocol);
      } catch {
        return false;
      }
    },
    { message: 'must be an http:// or https:// URL' },
  );

const sitemapUrl = z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), { message: 'must be an http:// or https:// URL' });

export const SeedDiscoverySchema = z
  .object({
    /** Queried on each search pattern, one query each [the topic's keyword terms]. */
    keywords: z.array(word).min(1).optional(),
    /** A site's own search page, e.g. `https://www.example.edu/search?q={q}&page={page}`. */
    search: z.array(searchPattern).default([]),
    /** Result pages read per keyword and pattern. */
    pages: z.number().int().min(1).max(20).default(3),
    /** true: the seeds' sites' robots.txt `Sitemap:` lines, else their /sitemap.xml; or the sitemap URLs. */
    sitemaps: z.union([z.boolean(), z.array(sitemapUrl).min(1)]).default(false),
    /** Seeds discovered at most (after the job's own). */
    max: z.number().int().min(1).max(10_000).default(100),
  })
  .strict();

export const TemplateSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    topic: TopicSchema,
    /** Keyword levels: links matching level i lead from pages reached through level i − 1. */
    filters: z.array(z.array(word).min(1, { message: 'a filter level needs at least one keyword' })).default([]),
    nextPage: z.array(word).min(1).default([...DEFAULT_NEXT_PAGE_LABELS]),
    extract: z.record(z.string().trim().min(1).max(100), ExtractFieldSchema).default({}),
    nearDuplicate: NearDuplicateSchema.default(NearDuplicateSchema.parse({})),
    /** A link found on an off-topic page is followed only if its own score reaches this [the topic threshold]. */
    linkThreshold: z.number().min(0).max(1).nullable().default(null),
    crawlProbability: CrawlProbabilitySchema.default(CrawlProbabilitySchema.parse({})),
    /** Where more seeds come from: a site's search page, its sitemaps; ranked after the job's own. */
    seeds: SeedDiscoverySchema.nullable().default(null),
  })
  .strict();

export type TopicKeyword = z.infer<typeof TopicKeywordSchema>;
export type ExtractField = z.infer<typeof ExtractFieldSchema>;
export type Template = z.infer<typeof TemplateSchema>;
export type SeedDiscovery = z.infer<typeof SeedDiscoverySchema>;
export type TemplateInput = z.input<typeof TemplateSchema>;

export interface TemplateIssue {
  /** Dotted path of the field, e.g. 'topic.keywords.1.weight'; '' for the template as a whole. */
  path: string;
  message: string;
}

export class TemplateValidationError extends Error {
  constructor(readonly issues: TemplateIssue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
    this.name = 'TemplateValidationError';
  }
}

/** Parses untrusted template input, filling defaults; throws TemplateValidationError naming each bad field. */
export function parseTemplate(input: unknown): Template {
  const r = TemplateSchema.safeParse(input);
  if (r.success) return r.data;
  throw new TemplateValidationError(
    r.error.issues.map((i) => ({ path: i.path.join('.'), message: messageOf(i) })),
  );
}

/** zod's messages for a union say only "Invalid input"; a keyword's two shapes deserve better. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union') return 'must be a keyword string or {"term": "...", "weight": n, "synonyms": [...]}';
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  return issue.message;
}

/** The keywords a template's seed discovery searches for: its own, else the topic's terms. */
export function searchKeywordsOf(t: Template): string[] {
  return t.seeds?.keywords ?? t.topic.keywords.map((k) => (typeof k === 'string' ? k : k.term));
}

/** The threshold a link on an off-topic page must reach to be followed. */
export function linkThresholdOf(t: Template): number {
  return t.linkThreshold ?? t.topic.threshold;
}
