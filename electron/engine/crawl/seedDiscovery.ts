import { setTimeout as sleep } from 'node:timers/promises';
import { searchKeywordsOf, type Template } from '../../../shared/template.js';
import { FetchError } from '../fetch/errors.js';
import type { Fetcher, FetchResponse } from '../fetch/fetcher.js';
import { parseSitemap, searchResultLinks, sitemapsInRobots } from '../focus/discoveredLinks.js';
import { ownLinkScore } from '../focus/linkScore.js';
import { topicMatcher } from '../focus/topic.js';
import { urlTokens } from '../focus/tokens.js';
import type { GateLimits, HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL, ROBOTS_USER_AGENT_TOKEN, robotsPolicyFrom, robotsUrlFor, type RobotsPolicy } from '../politeness/robots.js';
import type { Catalogue, RobotsRow } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { WarcWriter } from '../warc/writer.js';
import { fetchRobotsTxt } from './robotsFetch.js';

/**
 * A focused harvest's seed discovery (template `seeds`): the result links of a site's own search
 * page for each search keyword, and the URLs of the seeds' sitemaps. Every request goes through
 * the crawl's fetcher and host gates, obeys robots.txt as the crawl does (the robots.txt read here
 * is the one the crawl then uses) and is recorded in the WARC.
 */
export interface DiscoveryDeps {
  fetcher: Fetcher;
  gates: HostGates;
  catalogue: Catalogue;
  warc: WarcWriter | null;
  respectRobots: boolean;
  /** The crawl's politeness for a site with this robots policy. */
  limitsFor: (policy: RobotsPolicy) => GateLimits;
  /** Discovered URLs outside the crawl's scope are not seeds. */
  inScope: (url: string) => boolean;
  signal: AbortSignal;
}

export interface DiscoveredSeeds {
  /** Ranked: search results (round-robin over the queries, each in result order), then sitemap URLs by topic score. */
  seeds: string[];
  fromSearch: number;
  fromSitemaps: number;
}

/**
 * The discovered seeds of the archive's current capture: found once (before its first request) and
 * kept in the catalogue, so a resumed run, and its crawl probability, draw from the same list.
 */
export async function seedsOfCapture(
  t: Template,
  jobSeeds: readonly string[],
  d: Omit<DiscoveryDeps, 'signal'> & { inFlight: Map<AbortController, string> },
): Promise<string[]> {
  const key = `focus_discovered_seeds:${d.catalogue.currentCapture()}`;
  const saved = d.catalogue.getMeta(key);
  if (saved !== null) return JSON.parse(saved) as string[];
  // Registered as in flight, so pausing or stopping the crawl aborts it.
  const abort = new AbortController();
  d.inFlight.set(abort, 'seed discovery');
  try {
    const found = await discoverSeeds(t, jobSeeds, { ...d, signal: abort.signal });
    if (!abort.signal.aborted) d.catalogue.setMeta(key, JSON.stringify(found.seeds));
    return found.seeds;
  } finally {
    d.inFlight.delete(abort);
  }
}

const MAX_REDIRECTS = 5;
/** Sitemap files read at most per discovery (an index may name thousands). */
const MAX_SITEMAP_FILES = 50;
/** A busy host is asked again after this long if no release wakes us first. */
const GATE_POLL_MS = 250;

export async function discoverSeeds(t: Template, jobSeeds: readonly string[], d: DiscoveryDeps): Promise<DiscoveredSeeds> {
  const spec = t.seeds;
  if (spec === null) return { seeds: [], fromSearch: 0, fromSitemaps: 0 };
  const get = new PoliteGet(d);
  const taken = new Set(jobSeeds);
  const seeds: string[] = [];
  const take = (url: string): boolean => {
    if (seeds.length >= spec.max || taken.has(url) || !d.inScope(url)) return false;
    taken.add(url);
    seeds.push(url);
    return true;
  };
  const queries: string[][] = [];
  for (const pattern of spec.search) {
    for (const keyword of searchKeywordsOf(t)) queries.push(await searchResults(get, pattern, keyword, spec.pages));
  }
  let fromSearch = 0;
  for (let rank = 0; queries.some((q) => rank < q.length); rank++) {
    for (const q of queries) if (rank < q.length && take(q[rank]!)) fromSearch++;
  }
  let fromSitemaps = 0;
  if (spec.sitemaps !== false) {
    const topic = topicMatcher(t);
    const entries = await sitemapEntries(get, spec.sitemaps === true ? await sitemapsOfSites(get, jobSeeds) : spec.sitemaps);
    const ranked = entries
      .map((e, order) => ({ ...e, order, score: ownLinkScore(topic, [], urlTokens(e.url)) }))
      .sort((a, b) => b.score - a.score || b.priority - a.priority || a.order - b.order);
    for (const e of ranked) if (take(e.url)) fromSitemaps++;
  }
  return { seeds, fromSearch, fromSitemaps };
}

/** One query's result links over up to `pages` result pages; stops at a page that adds none. */
async function searchResults(get: PoliteGet, pattern: string, keyword: string, pages: number): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= pages; page++) {
    const url = canonicalize(pattern.replaceAll('{q}', encodeURIComponent(keyword)).replaceAll('{page}', String(page)));
    const res = url === null ? null : await get.fetch(url);
    if (res === null || res.status < 200 || res.status >= 300 || !/html/i.test(res.contentType ?? 'text/html')) break;
    const fresh = (await searchResultLinks(res.body.toString('utf8'), res.url)).filter((l) => !seen.has(l));
    if (fresh.length === 0) break;
    for (const l of fresh) seen.add(l);
    out.push(...fresh);
    if (!pattern.includes('{page}')) break;
  }
  return out;
}

/** Each seed site's robots.txt `Sitemap:` lines, or its /sitemap.xml when it names none. */
async function sitemapsOfSites(get: PoliteGet, jobSeeds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const site of new Set(jobSeeds.map((s) => new URL(s).origin))) {
    const row = await get.robotsRow(site);
    const named = row?.http_status != null && row.http_status >= 200 && row.http_status < 300 ? sitemapsInRobots(row.body ?? '') : [];
    out.push(...(named.length > 0 ? named : [new URL('/sitemap.xml', site).href]));
  }
  return out;
}

/** The URLs of the sitemaps and of the sitemaps their indexes name, in reading order. */
async function sitemapEntries(get: PoliteGet, roots: readonly string[]) {
  const queue = [...roots];
  const read = new Set<string>();
  const entries: { url: string; priority: number }[] = [];
  while (queue.length > 0 && read.size < MAX_SITEMAP_FILES) {
    const url = queue.shift()!;
    if (read.has(url)) continue;
    read.add(url);
    const res = await get.fetch(url);
    if (res === null || res.status < 200 || res.status >= 300) continue;
    try {
      const map = await parseSitemap(res.body);
      queue.push(...map.sitemaps);
      entries.push(...map.urls);
    } catch {
      // A damaged gzip or a file over the size limit: the other sitemaps still count.
    }
  }
  return entries;
}

/** GET through the crawl's gates and robots rules, following redirects; null when not allowed or failed. */
class PoliteGet {
  private readonly policies = new Map<string, RobotsPolicy>();
  private readonly rows = new Map<string, RobotsRow | null>();

  constructor(private readonly d: DiscoveryDeps) {}

  async fetch(first: string): Promise<FetchResponse | null> {
    let url = first;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const policy = await this.policy(new URL(url).origin);
      if (!policy.isAllowed(url)) return null;
      const res = await this.gated(url, policy, () => this.d.fetcher.fetch(url, { signal: this.d.signal }));
      if (res === null) return null;
      await this.d.warc?.writeExchange(exchangeFromFetch(res));
      if (res.status < 300 || res.status >= 400 || res.location === null) return res;
      const next = canonicalize(res.location, url);
      if (next === null) return null;
      url = next;
    }
    return null;
  }

  /** The site's robots.txt, fetched once; kept in the catalogue for the crawl unless it was unreachable (the crawl asks again). */
  async robotsRow(site: string): Promise<RobotsRow | null> {
    if (this.rows.has(site)) return this.rows.get(site)!;
    let row: RobotsRow | null = this.d.catalogue.getRobots(site) ?? null;
    if (row === null) {
      row = await this.gated(robotsUrlFor(site), ALLOW_ALL, async () => fetchRobotsTxt(this.d.fetcher, this.d.warc, site, this.d.signal));
      if (row !== null && row.error === null && row.http_status !== null && row.http_status < 500) this.d.catalogue.putRobots(site, row);
    }
    this.rows.set(site, row);
    return row;
  }

  private async policy(site: string): Promise<RobotsPolicy> {
    let p = this.policies.get(site);
    if (p === undefined) {
      if (!this.d.respectRobots) p = ALLOW_ALL;
      else {
        const row = await this.robotsRow(site);
        p = row === null ? robotsPolicyFrom({ http_status: null, body: null, error: 'aborted' }, robotsUrlFor(site), ROBOTS_USER_AGENT_TOKEN) : robotsPolicyFrom(row, robotsUrlFor(site), ROBOTS_USER_AGENT_TOKEN);
      }
      this.policies.set(site, p);
    }
    return p;
  }

  /** Runs `request` holding the host's gate, as the crawl's own requests do; null for a network failure. */
  private async gated<T>(url: string, policy: RobotsPolicy, request: () => Promise<T>): Promise<T | null> {
    const host = new URL(url).host;
    let release: () => void;
    for (;;) {
      if (this.d.signal.aborted) return null;
      const got = this.d.gates.tryAcquire(host, this.d.limitsFor(policy));
      if (typeof got === 'function') {
        release = got;
        break;
      }
      await this.wait(got);
    }
    try {
      return await request();
    } catch (e) {
      if (e instanceof FetchError) return null;
      throw e;
    } finally {
      release();
    }
  }

  private async wait(ms: number): Promise<void> {
    let off = () => {};
    const released = new Promise<void>((resolve) => (off = this.d.gates.onRelease(resolve)));
    await Promise.race([released, sleep(Number.isFinite(ms) ? ms : GATE_POLL_MS)]);
    off();
  }
}
