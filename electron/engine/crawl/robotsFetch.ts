import { FetchError } from '../fetch/errors.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { refusedAddressOf, ROBOTS_USER_AGENT_TOKEN as USER_AGENT_TOKEN, robotsPolicyFrom, robotsUrlFor } from '../politeness/robots.js';
import type { Catalogue, RobotsRow } from '../store/catalogue.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { WarcWriter } from '../warc/writer.js';
import type { SiteWork } from './lanes.js';

const ROBOTS_MAX_REDIRECTS = 5;

/**
 * Fetches a site's robots.txt, following redirects and recording every exchange in the WARC.
 * Returns the row to keep (a network failure becomes its error), or null when aborted.
 */
export async function fetchRobotsTxt(fetcher: Fetcher, warc: WarcWriter | null, site: string, signal: AbortSignal): Promise<RobotsRow | null> {
  let url = robotsUrlFor(site);
  try {
    for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
      const res = await fetcher.fetch(url, { signal });
      await warc?.writeExchange(exchangeFromFetch(res));
      if (res.status >= 300 && res.status < 400 && res.location) {
        url = new URL(res.location, url).href;
        continue;
      }
      return { http_status: res.status, body: res.body.toString('utf8'), error: null };
    }
    return { http_status: null, body: null, error: `more than ${ROBOTS_MAX_REDIRECTS} redirects` };
  } catch (e) {
    if (!(e instanceof FetchError)) throw e;
    if (e.code === 'aborted') return null;
    return { http_status: null, body: null, error: `${e.code}: ${e.message}` };
  }
}

/** A robots.txt that answers 5xx or not at all is asked again this many times before the site is given up. */
export const ROBOTS_ATTEMPTS = 3;
/** The wait before the next attempt, times the attempts made. */
export const ROBOTS_RETRY_MS = 5_000;

/**
 * An unreachable robots.txt means keep out (RFC 9309), but only for now: the crawl asks again a few
 * times before recording it, so a passing outage doesn't cost the whole site.
 */
export function robotsUnavailable(row: RobotsRow): boolean {
  return row.error !== null || (row.http_status ?? 0) >= 500;
}

/**
 * Fetches a site's robots.txt for the crawl loop and decides what it means: a policy on the site,
 * kept in the catalogue, or (unreachable or 5xx, with attempts left) a time to ask again.
 */
export async function fetchSiteRobots(
  s: SiteWork,
  p: { fetcher: Fetcher; warc: WarcWriter | null; catalogue: Catalogue; inFlight: Map<AbortController, string> },
): Promise<void> {
  const abort = new AbortController();
  p.inFlight.set(abort, robotsUrlFor(s.site));
  let row;
  try {
    row = await fetchRobotsTxt(p.fetcher, p.warc, s.site, abort.signal);
  } finally {
    p.inFlight.delete(abort);
  }
  if (row === null) return;
  s.robotsAttempts++;
  // A refused address stays refused: asking again would only delay the site's URLs being recorded so.
  if (robotsUnavailable(row) && refusedAddressOf(row) === null && s.robotsAttempts < ROBOTS_ATTEMPTS) {
    s.robotsRetryAtMs = Date.now() + ROBOTS_RETRY_MS * s.robotsAttempts;
    return;
  }
  p.catalogue.putRobots(s.site, row);
  s.robots = robotsPolicyFrom(row, robotsUrlFor(s.site), USER_AGENT_TOKEN);
}
