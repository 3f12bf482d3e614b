import { createRequire } from 'node:module';
import type { RobotsRow } from '../store/catalogue.js';

interface ParsedRobots {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getCrawlDelay(userAgent?: string): number | undefined;
}

// robots-parser is CommonJS and its typings don't describe its export in a way NodeNext resolves,
// so load it as what it is at run time: module.exports = function (url, contents).
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => ParsedRobots;

/** What one site's robots.txt allows us, per RFC 9309. */
export interface RobotsPolicy {
  isAllowed(url: string): boolean;
  /** Crawl-delay in milliseconds, 0 if none. */
  crawlDelayMs: number;
  /** Set when robots.txt could not be had (so nothing is allowed): why, e.g. "robots.txt answered HTTP 503". */
  unavailable?: string;
  /** Set when the site's address is one the job may not reach (so nothing is allowed): why. */
  refusedAddress?: string;
}

/** How a robots row records a fetch the address policy refused (`<FetchError code>: <message>`). */
const ADDRESS_ERROR = 'address: ';

/** The address policy's refusal a robots row records, or null. */
export function refusedAddressOf(row: RobotsRow): string | null {
  return row.error?.startsWith(ADDRESS_ERROR) ? row.error.slice(ADDRESS_ERROR.length) : null;
}

/** The product token robots.txt groups are matched against. */
export const ROBOTS_USER_AGENT_TOKEN = 'Harvest';

export const ALLOW_ALL: RobotsPolicy = { isAllowed: () => true, crawlDelayMs: 0 };

/** Longest Crawl-delay we honour; a larger value would stall a crawl for hours per page. */
const MAX_CRAWL_DELAY_MS = 60_000;

export function robotsUrlFor(siteOrigin: string): string {
  return new URL('/robots.txt', siteOrigin).href;
}

/**
 * RFC 9309 2.3.1: a 4xx means no restrictions; a 5xx or an unreachable server means complete
 * disallow (the site may be protecting itself); a 2xx is parsed.
 */
export function robotsPolicyFrom(row: RobotsRow, robotsUrl: string, userAgentToken: string): RobotsPolicy {
  const keepOut = (why: string): RobotsPolicy => ({ isAllowed: () => false, crawlDelayMs: 0, unavailable: why });
  const refused = refusedAddressOf(row);
  if (refused !== null) return { isAllowed: () => false, crawlDelayMs: 0, refusedAddress: refused };
  if (row.error !== null || row.http_status === null) return keepOut(`robots.txt unreachable: ${row.error ?? 'no answer'}`);
  if (row.http_status >= 500) return keepOut(`robots.txt answered HTTP ${row.http_status}`);
  if (row.http_status >= 400) return ALLOW_ALL;
  if (row.http_status < 200 || row.http_status >= 300) return ALLOW_ALL;
  const parsed = robotsParser(robotsUrl, row.body ?? '');
  const delay = parsed.getCrawlDelay(userAgentToken);
  return {
    isAllowed: (url) => parsed.isAllowed(url, userAgentToken) !== false,
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS) : 0,
  };
}
