import { FetchError } from '../fetch/errors.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { robotsUrlFor } from '../politeness/robots.js';
import type { RobotsRow } from '../store/catalogue.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { WarcWriter } from '../warc/writer.js';

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
