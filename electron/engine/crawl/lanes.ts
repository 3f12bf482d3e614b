import type { RobotsPolicy } from '../politeness/robots.js';
import { workerForSite } from '../politeness/shards.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';

/** A site is an origin: robots.txt applies per origin, politeness per host (the gate key). */
export interface SiteWork {
  site: string;
  host: string;
  lane: Lane;
  buffer: QueuedRow[];
  /**
   * Responses fetched and not yet recorded. Politeness counts requests on the wire; this keeps as
   * many again waiting to be archived, enough to overlap the two, and bounds what a kill re-fetches.
   */
  processing: number;
  /** No queued rows left in the catalogue beyond those buffered or running. */
  exhausted: boolean;
  robots: RobotsPolicy | null;
  robotsFetching: boolean;
  robotsAttempts: number;
  robotsRetryAtMs: number;
}

export interface Lane {
  name: string;
  active: number;
  capacity: number;
  sites: SiteWork[];
  cursor: number;
}

const BUFFER_SIZE = 64;

/**
 * The sites with work and the concurrency lanes they are spread over by rendezvous hashing (a site
 * belongs to one lane, and adding a lane moves few sites). Each site's queue is read from the
 * catalogue a buffer at a time; rows handed out are leased until their outcome is recorded.
 */
export class Lanes {
  private readonly lanes: Lane[];
  private readonly sites = new Map<string, SiteWork>();
  readonly leased = new Set<number>();

  constructor(
    private readonly catalogue: Catalogue,
    count: number,
    capacity: number,
    /** What a new site starts with: ALLOW_ALL when robots.txt is ignored, else null (fetch it). */
    private readonly initialRobots: RobotsPolicy | null,
  ) {
    this.lanes = Array.from({ length: Math.max(1, count) }, (_, i) => ({ name: `lane-${i}`, active: 0, capacity, sites: [], cursor: 0 }));
  }

  siteHasWork(site: string): void {
    const known = this.sites.get(site);
    if (known) {
      known.exhausted = false;
      return;
    }
    const name = workerForSite(site, this.lanes.map((l) => l.name));
    const lane = this.lanes.find((l) => l.name === name)!;
    const s: SiteWork = {
      site,
      host: new URL(site).host,
      lane,
      buffer: [],
      processing: 0,
      exhausted: false,
      robots: this.initialRobots,
      robotsFetching: false,
      robotsAttempts: 0,
      robotsRetryAtMs: 0,
    };
    this.sites.set(site, s);
    lane.sites.push(s);
  }

  refill(s: SiteWork): void {
    if (s.buffer.length > 0 || s.exhausted) return;
    const rows = this.catalogue.nextQueued(s.site, this.leased.size + BUFFER_SIZE);
    for (const r of rows) if (!this.leased.has(r.id)) s.buffer.push(r);
    if (s.buffer.length === 0) s.exhausted = true;
  }

  /**
   * Offers each lane's sites in turn to `tryStart` until the lane is full or no site can start:
   * true, a task started; a number, ms until that site may; false, nothing to do. Returns the
   * shortest wait, or Infinity.
   */
  dispatch(tryStart: (s: SiteWork) => boolean | number): number {
    let wakeInMs = Infinity;
    for (const lane of this.lanes) {
      let idle = 0;
      while (lane.active < lane.capacity && idle < lane.sites.length) {
        const s = lane.sites[lane.cursor % lane.sites.length]!;
        lane.cursor++;
        const started = tryStart(s);
        if (started === true) idle = 0;
        else {
          idle++;
          if (typeof started === 'number') wakeInMs = Math.min(wakeInMs, started);
        }
      }
    }
    return wakeInMs;
  }

  /** Nothing on the wire in any lane. */
  quiet(): boolean {
    return this.lanes.every((l) => l.active === 0);
  }

  allExhausted(): boolean {
    for (const s of this.sites.values()) if (!s.exhausted) return false;
    return true;
  }

  /** A limit was reached: buffered rows are dropped (all, or all but requisites). */
  dropBuffered(requisitesToo: boolean): void {
    for (const s of this.sites.values()) {
      s.buffer = requisitesToo ? [] : s.buffer.filter((r) => r.requisite === 1);
      if (requisitesToo) s.exhausted = true;
    }
  }
}
