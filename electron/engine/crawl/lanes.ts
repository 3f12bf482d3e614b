import type { RobotsPolicy } from '../politeness/robots.js';
import { workerForSite } from '../politeness/shards.js';
import type { QueuedRow } from '../store/catalogue.js';
import type { FrontierOrder } from './frontierOrder.js';

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
  /** No queued rows left in the catalogue beyond those buffered, running or waiting for a retry. */
  exhausted: boolean;
  /**
   * Rows whose last attempt failed transiently, by when they are due: each goes out once its
   * back-off (or the Retry-After it was given) has passed, ahead of the site's queued rows. They
   * stay leased meanwhile.
   */
  retries: RetryWait[];
  /** How long the site's last request took (ms), for the adaptive delay; 0 before the first. */
  lastResponseMs: number;
  /** When its last request started (Date.now()). */
  lastStartMs: number;
  robots: RobotsPolicy | null;
  robotsFetching: boolean;
  robotsAttempts: number;
  robotsRetryAtMs: number;
}

export interface RetryWait {
  row: QueuedRow;
  dueAtMs: number;
}

export interface Lane {
  name: string;
  active: number;
  capacity: number;
  sites: SiteWork[];
  cursor: number;
}

/** Row ids handed out and not yet settled; a waiter can learn when one is given back. */
export class Leases extends Set<number> {
  private readonly waiters = new Map<number, (() => void)[]>();

  override delete(id: number): boolean {
    const had = super.delete(id);
    const waiting = this.waiters.get(id);
    if (waiting !== undefined) {
      this.waiters.delete(id);
      for (const wake of waiting) wake();
    }
    return had;
  }

  /** Resolves once `id` is no longer leased (at once if it is not). */
  released(id: number): Promise<void> {
    if (!this.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.waiters.get(id);
      if (waiting) waiting.push(resolve);
      else this.waiters.set(id, [resolve]);
    });
  }
}

/**
 * The sites with work and the concurrency lanes they are spread over by rendezvous hashing (a site
 * belongs to one lane, and adding a lane moves few sites). Each site's queue is read from the
 * catalogue a buffer at a time; rows handed out are leased until their outcome is recorded.
 */
export class Lanes {
  private readonly lanes: Lane[];
  private readonly sites = new Map<string, SiteWork>();
  readonly leased = new Leases();

  constructor(
    private readonly order: FrontierOrder,
    count: number,
    capacity: number,
    /** What a new site starts with: ALLOW_ALL when robots.txt is ignored, else null (fetch it). */
    private readonly initialRobots: RobotsPolicy | null,
  ) {
    this.lanes = Array.from({ length: Math.max(1, count) }, (_, i) => ({ name: `lane-${i}`, active: 0, capacity, sites: [], cursor: 0 }));
  }

  /** Every site with work or known robots.txt, as the crawl loop sees it. */
  knownSites(): IterableIterator<SiteWork> {
    return this.sites.values();
  }

  /** Lets each lane run at least `capacity` requests at once (more connections per host were allowed). */
  raiseCapacity(capacity: number): void {
    for (const lane of this.lanes) lane.capacity = Math.max(lane.capacity, capacity);
  }

  /** A URL of `site` was queued (with its best-first score, if any). */
  siteHasWork(site: string, score?: number): void {
    const known = this.sites.get(site);
    if (known) {
      known.exhausted = false;
      if (this.order.outranks(score, known.buffer)) known.buffer = [];
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
      retries: [],
      lastResponseMs: 0,
      lastStartMs: -Infinity,
      robots: this.initialRobots,
      robotsFetching: false,
      robotsAttempts: 0,
      robotsRetryAtMs: 0,
    };
    this.sites.set(site, s);
    lane.sites.push(s);
  }

  /**
   * Leases a queued row for a request made outside dispatch (a rendered page's), taking it out of
   * its site's buffer so dispatch never starts it too. False when it is leased already.
   */
  claim(row: { id: number; site: string }): boolean {
    if (this.leased.has(row.id)) return false;
    this.leased.add(row.id);
    const s = this.sites.get(row.site);
    const i = s === undefined ? -1 : s.buffer.findIndex((r) => r.id === row.id);
    if (i >= 0) s!.buffer.splice(i, 1);
    return true;
  }

  /**
   * Buffers the site's next queued rows; once none are left, those an earlier run left waiting for
   * a retry (their back-off has long passed).
   */
  refill(s: SiteWork): void {
    if (s.buffer.length > 0 || s.exhausted) return;
    for (const next of [this.order.next, this.order.retries]) {
      const rows = next(s.site, this.leased.size + this.order.bufferSize);
      for (const r of rows) if (!this.leased.has(r.id)) s.buffer.push(r);
      if (s.buffer.length > 0) return;
    }
    if (s.retries.length === 0) s.exhausted = true;
  }

  /** Keeps a leased row aside until `dueAtMs`, when it goes ahead of the site's queue. */
  retryLater(s: SiteWork, row: QueuedRow, dueAtMs: number): void {
    s.retries.push({ row, dueAtMs });
    s.retries.sort((a, b) => a.dueAtMs - b.dueAtMs);
    s.exhausted = false;
  }

  /** Ms until the site's first retry is due: 0 when one is, Infinity when none waits. */
  retryDueIn(s: SiteWork, nowMs: number): number {
    const first = s.retries[0];
    return first === undefined ? Infinity : Math.max(0, first.dueAtMs - nowMs);
  }

  /** Takes the site's first retry (retryDueIn said it is due); it stays leased. */
  takeRetry(s: SiteWork): QueuedRow {
    return s.retries.shift()!.row;
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

  /** Rows waiting for a retry: leased, but not running. */
  waitingRetries(): number[] {
    const ids: number[] = [];
    for (const s of this.sites.values()) for (const r of s.retries) ids.push(r.row.id);
    return ids;
  }

  /** A limit was reached: buffered rows and retries are dropped (all, or all but requisites). */
  dropBuffered(requisitesToo: boolean): void {
    for (const s of this.sites.values()) {
      for (const r of s.retries) if (requisitesToo || r.row.requisite !== 1) this.leased.delete(r.row.id);
      s.buffer = requisitesToo ? [] : s.buffer.filter((r) => r.requisite === 1);
      s.retries = requisitesToo ? [] : s.retries.filter((r) => r.row.requisite === 1);
      if (requisitesToo) s.exhausted = true;
    }
  }
}
