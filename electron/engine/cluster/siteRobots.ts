import type pg from 'pg';
import { fetchRobotsTxt, ROBOTS_ATTEMPTS, ROBOTS_RETRY_MS, robotsUnavailable } from '../crawl/robotsFetch.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { sleep } from '../fetch/retry-policy.js';
import { ALLOW_ALL, ROBOTS_USER_AGENT_TOKEN, robotsPolicyFrom, robotsUrlFor, type RobotsPolicy } from '../politeness/robots.js';
import type { RobotsRow } from '../store/catalogue.js';
import type { WarcWriter } from '../warc/writer.js';
import { saveRobots, storedRobots } from './coordination.js';
import type { DbLink } from './dbLink.js';

/** A robots.txt the worker stopped before fetching: nothing is fetched, and nothing is kept. */
const STOPPING = 'worker stopping';

/**
 * A worker's robots.txt policies, asked for once per site: as stored for the site, else fetched
 * (into the worker's WARC) and saved for every worker; reads and writes wait out a database outage.
 */
export class SiteRobots {
  private readonly policies = new Map<string, Promise<RobotsPolicy>>();
  /** Each site's Crawl-delay, once its policy is known (the batch rule counts it). */
  readonly crawlDelays = new Map<string, number>();

  constructor(
    private readonly db: pg.Pool,
    private readonly link: DbLink,
    private readonly fetcher: Fetcher,
    private readonly warc: WarcWriter | null,
    private readonly signal: AbortSignal,
    private readonly respect: boolean,
  ) {}

  /** `stored`: the site's row as the lease read it (null: none yet); undefined reads it now. */
  for(site: string, stored?: RobotsRow | null): Promise<RobotsPolicy> {
    if (!this.respect) return Promise.resolve(ALLOW_ALL);
    let policy = this.policies.get(site);
    if (policy === undefined) {
      policy = this.load(site, stored);
      this.policies.set(site, policy);
      // Not kept when the worker stopped before it came: asked again, as before.
      policy.then(
        (p) => (p.unavailable === STOPPING ? this.policies.delete(site) : this.crawlDelays.set(site, p.crawlDelayMs)),
        () => this.policies.delete(site),
      );
    }
    return policy;
  }

  private async load(site: string, stored: RobotsRow | null | undefined): Promise<RobotsPolicy> {
    let row = stored === undefined ? await this.link.retry('reading robots.txt', () => storedRobots(this.db, site), this.signal) : stored;
    const stopping: RobotsPolicy = { isAllowed: () => false, crawlDelayMs: 0, unavailable: STOPPING };
    // As in a local crawl, an unreachable or 5xx robots.txt is asked again before the site is kept
    // out; the worker holds the site's lease meanwhile, and only the last answer is kept.
    for (let attempt = 1; row === null; attempt++) {
      const fetched = await fetchRobotsTxt(this.fetcher, this.warc, site, this.signal);
      if (fetched === null) return stopping;
      if (robotsUnavailable(fetched) && attempt < ROBOTS_ATTEMPTS) {
        const waited = await sleep(ROBOTS_RETRY_MS * attempt, this.signal).then(
          () => true,
          () => false,
        );
        if (!waited) return stopping;
        continue;
      }
      row = fetched;
      await this.link.retry('saving robots.txt', () => saveRobots(this.db, site, fetched), this.signal);
    }
    return robotsPolicyFrom(row, robotsUrlFor(site), ROBOTS_USER_AGENT_TOKEN);
  }
}
