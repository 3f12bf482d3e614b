import type { Job } from '../../../shared/job.js';
import type { Fetcher } from '../fetch/fetcher.js';
import type { HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL, ROBOTS_USER_AGENT_TOKEN as USER_AGENT_TOKEN, robotsPolicyFrom, robotsUrlFor } from '../politeness/robots.js';
import type { Catalogue } from '../store/catalogue.js';
import type { WarcWriter } from '../warc/writer.js';
import type { HostHolds } from './hostHolds.js';
import type { Lanes, SiteWork } from './lanes.js';
import { adaptiveWait, gateLimitsFor } from './politeDelay.js';
import type { ResponseArchiver } from './responseArchiver.js';
import { fetchSiteRobots } from './robotsFetch.js';
import type { UrlProcessor } from './urlProcessor.js';

export interface SiteDispatchParts {
  job: Job;
  catalogue: Catalogue;
  gates: HostGates;
  /** Hosts held by Retry-After, which no URL of theirs may pass. */
  holds: HostHolds;
  lanes: Lanes;
  fetcher: Fetcher;
  warc: WarcWriter | null;
  archiver: ResponseArchiver;
  processor: UrlProcessor;
  inFlight: Map<AbortController, string>;
  /** Starts whatever may start now (called when a task ends). */
  pump: () => void;
  /** An unexpected error ends the run. */
  fail: (e: unknown) => void;
}

/**
 * Starting a site's next task when its politeness allows: robots.txt first, URLs robots.txt keeps
 * out settled without a request, then one URL through the host's gate, handed to the processor.
 */
export class SiteDispatch {
  /** Responses being archived (their requests are done and their slots given back). */
  running = 0;

  constructor(private readonly p: SiteDispatchParts) {}

  /** true: a task started; a number: ms until this site may start one; false: nothing to do now. */
  tryStart(s: SiteWork): boolean | number {
    const { lanes } = this.p;
    lanes.refill(s);
    if (s.processing >= this.p.job.politeness.perHostConnections) return false;
    // A retry whose wait has passed goes ahead of the queue: its server named the time, or the
    // back-off did, and 8,000 new URLs must not stand in front of it.
    const retryIn = lanes.retryDueIn(s, Date.now());
    const idleFor = (): boolean | number => (retryIn === Infinity ? false : retryIn);
    if (retryIn > 0 && s.buffer.length === 0) return idleFor();
    if (s.robots === null) return this.startRobots(s);
    const policy = s.robots;
    // URLs that need no request are settled here, without spending a politeness slot on them.
    while (retryIn > 0 && !policy.isAllowed(s.buffer[0]!.url)) {
      const row = s.buffer.shift()!;
      if (policy.refusedAddress !== undefined) this.p.archiver.skip(row, 'address:private', policy.refusedAddress);
      else if (policy.unavailable === undefined) this.p.archiver.skip(row, 'robots');
      else this.p.archiver.skip(row, 'robots:unreachable', policy.unavailable);
      lanes.refill(s);
      if (s.buffer.length === 0) return idleFor();
    }
    const held = this.p.holds.waitMs(s.host);
    if (held > 0) return held;
    const now = Date.now();
    const adaptive = adaptiveWait(this.p.job, s, now);
    if (adaptive > 0) return adaptive;
    const acquired = this.p.gates.tryAcquire(s.host, gateLimitsFor(this.p.job, policy));
    if (typeof acquired === 'number') return acquired;
    s.lastStartMs = now;
    const row = retryIn === 0 ? lanes.takeRetry(s) : s.buffer.shift()!;
    this.p.lanes.leased.add(row.id);
    s.lane.active++;
    let fetching = true;
    // The host's slot and the lane are given back once the response is in, so the next request
    // goes out while this one is parsed and saved.
    const fetched = () => {
      if (!fetching) return;
      fetching = false;
      acquired();
      s.lane.active--;
      s.processing++;
      this.running++;
    };
    let retrying = false;
    this.p.processor.process(s, row, fetched, (waitMs) => {
      retrying = true;
      this.p.lanes.retryLater(s, row, Date.now() + waitMs);
    })
      .catch((e: unknown) => this.p.fail(e))
      .finally(() => {
        if (fetching) {
          fetching = false;
          acquired();
          s.lane.active--;
        } else {
          s.processing--;
          this.running--;
        }
        if (!retrying) this.p.lanes.leased.delete(row.id);
        this.p.pump();
      });
    return true;
  }

  private startRobots(s: SiteWork): boolean | number {
    if (s.robotsFetching) return false;
    const stored = this.p.catalogue.getRobots(s.site);
    if (stored) {
      s.robots = robotsPolicyFrom(stored, robotsUrlFor(s.site), USER_AGENT_TOKEN);
      return this.tryStart(s);
    }
    const wait = Math.max(s.robotsRetryAtMs - Date.now(), this.p.holds.waitMs(s.host));
    if (wait > 0) return wait;
    const acquired = this.p.gates.tryAcquire(s.host, gateLimitsFor(this.p.job, ALLOW_ALL));
    if (typeof acquired === 'number') return acquired;
    s.robotsFetching = true;
    s.lane.active++;
    fetchSiteRobots(s, this.p)
      .catch((e: unknown) => this.p.fail(e))
      .finally(() => {
        acquired();
        s.robotsFetching = false;
        s.lane.active--;
        this.p.pump();
      });
    return true;
  }
}
