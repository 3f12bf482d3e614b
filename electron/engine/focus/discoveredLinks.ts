import { gunzipSync } from 'node:zlib';
import { canonicalize } from '../url/canonical.js';

/**
 * What seed discovery reads: the result links of a site's search page and the URLs of a sitemap.
 * Parsing only; seedDiscovery.ts fetches.
 */

/** cheerio takes 0.2 s and some 17 MB to load: only a crawl that discovers seeds pays for it. */
const loadCheerio = () => import('cheerio');

/** Page chrome: its links are the site's navigation, not search results. */
const CHROME = 'header, nav, footer, aside, script, style, noscript, template, form';

/**
 * The result links of a search page, in page order: links to the search page's own site (its
 * origin), outside the page chrome, that are not the search page itself (other result pages,
 * sorting and filter links share its path).
 */
export async function searchResultLinks(html: string, pageUrl: string): Promise<string[]> {
  const $ = (await loadCheerio()).load(html);
  $(CHROME).remove();
  const base = $('base[href]').attr('href');
  const page = new URL(pageUrl);
  const seen = new Set<string>();
  const out: string[] = [];
  $('a[href]').each((_, a) => {
    const url = canonicalize($(a).attr('href')!, base === undefined ? pageUrl : new URL(base, pageUrl).href);
    if (url === null) return;
    const u = new URL(url);
    if (u.origin !== page.origin || u.pathname === page.pathname || seen.has(url)) return;
    seen.add(url);
    out.push(url);
  });
  return out;
}

export interface SitemapEntry {
  url: string;
  /** `<priority>` in [0, 1], 0.5 when absent (the protocol's default). */
  priority: number;
}

export interface Sitemap {
  /** A sitemap index's sitemaps. */
  sitemaps: string[];
  urls: SitemapEntry[];
}

/** Largest sitemap read, uncompressed: the protocol's own limit. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/** A sitemap or sitemap index (sitemaps.org), gzip-compressed or not; http(s) URLs only, canonical. */
export async function parseSitemap(body: Buffer): Promise<Sitemap> {
  const xml = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES }) : body;
  const $ = (await loadCheerio()).load(xml.toString('utf8'), { xml: true });
  const locOf = (el: Parameters<typeof $>[0]) => canonicalize($(el).children('loc').first().text().trim());
  const sitemaps: string[] = [];
  $('sitemapindex > sitemap').each((_, el) => {
    const url = locOf(el);
    if (url !== null) sitemaps.push(url);
  });
  const urls: SitemapEntry[] = [];
  $('urlset > url').each((_, el) => {
    const url = locOf(el);
    if (url === null) return;
    const p = Number.parseFloat($(el).children('priority').first().text());
    urls.push({ url, priority: Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0.5 });
  });
  return { sitemaps, urls };
}

/** The `Sitemap:` lines of a robots.txt (any case, anywhere in the file). */
export function sitemapsInRobots(robotsTxt: string): string[] {
  const out: string[] = [];
  for (const line of robotsTxt.split(/\r?\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    const url = m === null ? null : canonicalize(m[1]!);
    if (url !== null) out.push(url);
  }
  return out;
}
