import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { ClusterLimit } from '../../../shared/cluster.js';
import { HARVEST_VERSION, userAgentFor, type Job } from '../../../shared/job.js';
import { StoredDublinCoreSchema } from '../../../shared/metadata.js';
import { DocumentPool } from '../crawl/documentPool.js';
import { describePoliteness } from '../crawl/liveControl.js';
import { RequestHeaders } from '../crawl/requestHeaders.js';
import { AddressPolicy } from '../fetch/addressPolicy.js';
import { Fetcher } from '../fetch/fetcher.js';
import { HostGateRegistry } from '../politeness/hostGate.js';
import { findBrowser } from '../render/browserPath.js';
import { workerForSite } from '../politeness/shards.js';
import { operatorInfo } from '../warc/warcinfo.js';
import { WarcWriter } from '../warc/writer.js';
import { ClusterAdmission } from './admission.js';
import { commitBatch } from './batchCommit.js';
import { ClusterFocus } from './clusterFocus.js';
import { runBatch, type BatchTools } from './batchRun.js';
import { batchSize, FetchTimes, MAX_BATCH, MIN_BATCH, type BatchSizing } from './batchSize.js';
import { claimOwnSites, enforceLimits, leaseBatch, liveWorkers, reclaimDead, registerWorker, releaseStrayLeases, stopWorker, workToDo, type Lease } from './coordination.js';
import { DbLink, DEFAULT_DB_WAIT_MS, isConnectionLoss } from './dbLink.js';
import { activeOf } from './clusterControl.js';
import { ClusterWorkerError } from './errors.js';
import { Heartbeat } from './heartbeat.js';
import { readHarvest, type HarvestRow } from './schema.js';
import { SiteChoice } from './siteChoice.js';
import { SiteRobots } from './siteRobots.js';

export interface WorkerOptions {
  id: string;
  /** The shared store: warc/ (this worker's files, named after it) and mirror/ (everyone's). */
  store: string;
  /** How long a lease should take at this worker's pace (the batch rule's target). */
  targetLeaseMs: number;
  /** Sites served at once. */
  sites: number;
  /** Source address of this worker's requests (a multi-homed machine; the tests tell workers apart by it). */
  localAddress?: string;
  /** First retry's back-off (tests shrink it). */
  retryBackoffMs?: number;
  /** The browser to render with on this machine, in place of the job's (see render/browserPath.ts). */
  browserPath?: string;
  /** How long the harvest database may stay out of reach before the worker gives up (DbLink). */
  dbWaitMs?: number;
  log?: (line: string) => void;
}

/** How often the loop looks for work when it has none, or all its sites are busy. */
const POLL_MS = 100;

/**
 * A site free this long was left by its own worker (which leases again as soon as a batch ends, and
 * looks every POLL_MS): any worker may take it. 1 s held 3 workers to 72.5-73.5 requests/s in
 * bench:cluster, 300 ms gave 80.1-88.5.
 */
const STRAY_AFTER_MS = 300;
const ADAPTIVE_STRAY_AFTER_MS = 5_000;

export type WorkerEnd = 'finished' | 'stopped';

/**
 * A cluster worker: an asynchronous loop over the shared frontier in PostgreSQL. The local crawl
 * loop (crawl/crawl.ts) is synchronous over its SQLite catalogue, committing each URL between two
 * awaits; a network database can't answer inside that, so the worker has a loop of its own over the
 * same floors (fetcher, politeness gates, robots.txt, document workers, WARC writer, URL mapping)
 * and reports a whole batch per transaction instead of a URL per commit.
 */
export class ClusterWorker {
  private readonly running = new Map<string, Promise<void>>();
  private readonly choice = new SiteChoice();
  /** Ends the wait between rounds early (see pause). */
  private wake: (() => void) | null = null;
  private fatal: Error | null = null;
  private lastBatch = 0;
  private standingBy = false;
  private paused = false;
  private limit: ClusterLimit | null = null;
  /** The leases of the batches in hand. */
  private readonly inHand = new Set<number>();
  /** A round lost the database: a lease it took may have committed with its answer lost. */
  private strayLeases = false;

  private constructor(
    private readonly db: pg.Pool,
    private readonly link: DbLink,
    private readonly beat: Heartbeat,
    private readonly o: WorkerOptions,
    private readonly job: Job,
    private readonly leaseTimeoutMs: number,
    private readonly tools: BatchTools,
    private readonly robots: SiteRobots,
    private readonly sizing: BatchSizing,
    /** Aborted to stop: the batch tools' signal, so requests in flight end with it. */
    private readonly abort: AbortController,
  ) {}

  static async start(db: pg.Pool, liveness: pg.Pool, o: WorkerOptions): Promise<ClusterWorker> {
    const harvest = await readHarvest(db);
    // A worker that cannot render the job's pages stops before joining (BrowserNotFoundError names the paths tried).
    if (harvest.job.render.enabled) harvest.job.render.browserPath = findBrowser(o.browserPath ?? harvest.job.render.browserPath);
    await registerWorker(db, o.id, harvest.job.politeness.perHostConnections, harvest.leaseTimeoutMs);
    const link = new DbLink(o.dbWaitMs ?? DEFAULT_DB_WAIT_MS, o.log ?? (() => {}));
    const beat = new Heartbeat(liveness, o.id, harvest.leaseTimeoutMs, link);
    try {
      return await ClusterWorker.setUp(db, link, beat, o, harvest);
    } catch (e) {
      beat.stop();
      throw e;
    }
  }

  private static async setUp(db: pg.Pool, link: DbLink, beat: Heartbeat, o: WorkerOptions, harvest: HarvestRow): Promise<ClusterWorker> {
    // The worker, once made, answers robots.txt and failures for the rendered pages' requests.
    let self: ClusterWorker | null = null;
    const job = harvest.job;
    const mirrorRoot = path.join(o.store, 'mirror');
    const tmpDir = path.join(o.store, 'tmp', o.id);
    mkdirSync(mirrorRoot, { recursive: true });
    mkdirSync(tmpDir, { recursive: true });
    const documents = new DocumentPool({ mirrorRoot, tmpDir, template: job.template });
    await documents.ready();
    const headers = new RequestHeaders(job);
    const fetcher = new Fetcher({
      ...job.fetch,
      maxRetries: 0,
      extraHeaders: headers.common,
      userAgent: userAgentFor(job),
      connectionsPerOrigin: job.politeness.perHostConnections,
      addressPolicy: new AddressPolicy(job.seeds, job.allowNetworks),
      ...(o.localAddress !== undefined && { localAddress: o.localAddress }),
    });
    // Each worker writes files of its own, named after it; a file it left torn is cut back here.
    const warc = job.warc.enabled
      ? await WarcWriter.open({
          dir: path.join(o.store, 'warc'),
          prefix: o.id,
          software: `Harvest/${HARVEST_VERSION}`,
          maxFileBytes: job.warc.maxFileBytes,
          info: {
            isPartOf: job.name,
            robots: job.politeness.respectRobots ? 'obey' : 'ignore',
            'http-header-user-agent': userAgentFor(job),
            ...operatorInfo(job, StoredDublinCoreSchema.parse({})),
          },
        })
      : null;
    const abort = new AbortController();
    // Loaded only for a job that renders: a static harvest never loads the browser driver.
    const rendering = job.render.enabled
      ? (await import('./rendering.js')).ClusterRendering.open(job.render, warc, {
          db,
          store: o.store,
          robotsFor: (site) => self!.robots.for(site),
          fail: (e) => self!.failWith(e),
        })
      : null;
    const tools: BatchTools = {
      job,
      fetcher,
      headers,
      gates: new HostGateRegistry(),
      warc,
      documents,
      admission: new ClusterAdmission(job, harvest.seedRedirects),
      times: new FetchTimes(),
      retryBackoffMs: o.retryBackoffMs ?? 2_000,
      signal: abort.signal,
      rendering,
      focus: job.template === null ? null : new ClusterFocus(job.template),
    };
    const sizing = { targetLeaseMs: o.targetLeaseMs, connections: job.politeness.perHostConnections, delayMs: job.politeness.delayMs, min: MIN_BATCH, max: MAX_BATCH };
    const robots = new SiteRobots(db, link, fetcher, warc, abort.signal, job.politeness.respectRobots);
    self = new ClusterWorker(db, link, beat, o, job, harvest.leaseTimeoutMs, tools, robots, sizing, abort);
    return self;
  }

  /** Stops leasing; batches in flight are abandoned and their URLs go back to the queue at once. */
  stop(): void {
    this.abort.abort();
  }

  /**
   * The wait between two rounds: POLL_MS, or less when a batch ends, so its site (or another) is
   * leased again at once rather than at the next poll, or when the worker stops.
   */
  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.abort.signal.removeEventListener('abort', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, POLL_MS);
      this.abort.signal.addEventListener('abort', done);
      this.wake = done;
    });
  }

  private nextBatchSize(site: string): number {
    return batchSize(this.tools.times.mean(), this.sizing, this.robots.crawlDelays.get(site));
  }

  /** Runs until the harvest has nothing left, or stop(); resolves with which. */
  async run(): Promise<WorkerEnd> {
    const log = this.o.log ?? (() => {});
    this.beat.attach(
      () => ({ batchSize: this.lastBatch, meanFetchMs: this.tools.times.mean() }),
      (e) => this.failWith(e),
    );
    let end: WorkerEnd = 'stopped';
    try {
      for (let outage = 0; !this.abort.signal.aborted; ) {
        try {
          if ((await this.round(log)) === 'finished') {
            end = 'finished';
            break;
          }
          outage = 0;
        } catch (e) {
          // The database out of reach: the batches in hand go on fetching, and the round is tried again.
          if (!isConnectionLoss(e) || this.abort.signal.aborted) throw e;
          this.strayLeases = true;
          try {
            this.link.lost(e as Error, 'looking for work');
          } catch (bound) {
            this.failWith(bound);
          }
          if (this.fatal === null) await this.link.pause(++outage, this.abort.signal).catch(() => {});
          continue;
        }
        if (this.fatal !== null) break;
        await this.pause();
      }
    } finally {
      this.beat.stop();
      this.abort.abort();
      await Promise.allSettled(this.running.values());
      await this.tools.rendering?.close();
      await this.tools.fetcher.close().catch(() => {});
      await this.tools.documents.close();
      await this.tools.warc?.close().catch((e: unknown) => this.failWith(e));
      if (this.fatal === null) await stopWorker(this.db, this.o.id).catch(() => {});
    }
    if (this.fatal !== null) throw this.fatal;
    return end;
  }

  /** One look at the harvest: failed workers' leases taken back, settings followed, new batches leased. */
  private async round(log: (line: string) => void): Promise<'finished' | 'leased'> {
    if (this.strayLeases) {
      const back = await releaseStrayLeases(this.db, this.o.id, [...this.inHand]);
      if (back > 0) log(`gave back ${back} URLs of a lease whose answer was lost with the database connection`);
      this.strayLeases = false;
    }
    const reclaimed = await reclaimDead(this.db, this.leaseTimeoutMs);
    if (reclaimed.workers.length > 0) log(`took back ${reclaimed.urls} URLs from ${reclaimed.workers.join(', ')} (no heartbeat)`);
    const harvest = await readHarvest(this.db);
    this.tools.admission.updateSeedRedirects(harvest.seedRedirects);
    this.followPoliteness(harvest.job.politeness, log);
    // Before looking for work: what the limit leaves queued is settled, so the harvest can end.
    this.reportLimit(await enforceLimits(this.db, this.job.limits), log);
    const active = activeOf(await liveWorkers(this.db, this.leaseTimeoutMs), harvest.activeWorkers);
    this.reportStandby(!active.includes(this.o.id), log);
    const runningBefore = new Set(this.running.keys());
    const work = await workToDo(this.db, this.strayAfterMs());
    if (!work.pending && this.running.size === 0) return 'finished';
    this.reportPaused(harvest.paused, log);
    // Paused: no new lease (leaseBatch checks the flag too); batches in flight finish and commit.
    const leasing = active.includes(this.o.id) && !harvest.paused;
    const owned = (s: string) => workerForSite(s, active) === this.o.id;
    const mine = leasing ? work.sites.filter((s) => owned(s)) : [];
    // Sites left waiting by their own worker (it serves as many sites as it may), taken by a
    // worker with room, so the harvest's tail does not wait on the worker the hash gave most.
    const strays = leasing ? work.waiting.filter((s) => !owned(s)) : [];
    this.choice.settle(work.sites, runningBefore, this.running);
    const tried = new Set<string>();
    const next = () => (leasing && this.running.size < this.o.sites ? this.choice.next(mine, strays, this.running, tried) : undefined);
    for (let site = next(); site !== undefined; site = next()) {
      tried.add(site);
      const size = this.nextBatchSize(site);
      const order = this.tools.focus === null ? 'breadthFirst' : 'bestFirst';
      const lease = await leaseBatch(this.db, this.o.id, site, size, this.tools.times.mean(), this.job.limits, order);
      if (lease === null) {
        // A stray another worker holds now, or whose own worker asked for it back.
        if (!owned(site)) this.choice.forget(site);
        continue;
      }
      this.choice.began(site);
      this.lastBatch = size;
      this.inHand.add(lease.id);
      this.running.set(
        site,
        this.serve(lease).finally(() => {
          this.running.delete(site);
          this.inHand.delete(lease.id);
          this.wake?.();
        }),
      );
    }
    // Own sites another worker took while this one was full (or not yet there) are asked back once there is room.
    if (leasing && this.running.size < this.o.sites) await claimOwnSites(this.db, this.o.id, owned);
    this.link.reached();
    return 'leased';
  }

  /**
   * Takes politeness changed by `harvest control` into this worker's job: requests already waiting
   * for a host gate see the new delay and connection limit at once, running batches open lanes up
   * to the new connection count, and the connection pool and batch sizing follow.
   */
  private followPoliteness(wanted: Job['politeness'], log: (line: string) => void): void {
    const p = this.job.politeness;
    if (wanted.perHostConnections === p.perHostConnections && wanted.delayMs === p.delayMs) return;
    Object.assign(p, { perHostConnections: wanted.perHostConnections, delayMs: wanted.delayMs });
    this.tools.fetcher.setConnectionsPerOrigin(p.perHostConnections);
    Object.assign(this.sizing, { connections: p.perHostConnections, delayMs: p.delayMs });
    log(`now ${describePoliteness(p)}`);
  }

  /**
   * How long a site must have been free before another worker takes it: longer than the job's
   * delay, so the change of worker (and of host gate) never shortens the gap between two requests.
   * The adaptive delay is not known across workers; its ceiling for a 2.5 s response is taken.
   */
  private strayAfterMs(): number {
    return Math.max(STRAY_AFTER_MS, this.job.politeness.delayMs ?? ADAPTIVE_STRAY_AFTER_MS);
  }

  private reportStandby(standby: boolean, log: (line: string) => void): void {
    if (standby === this.standingBy) return;
    this.standingBy = standby;
    log(standby ? 'standing by: the harvest has fewer active workers than live ones (harvest control --workers)' : 'leasing again');
  }

  private reportPaused(paused: boolean, log: (line: string) => void): void {
    if (paused === this.paused) return;
    this.paused = paused;
    log(paused ? 'paused (harvest control --resume lets it go on): taking no new batch' : 'resumed');
  }

  private reportLimit(limit: ClusterLimit | null, log: (line: string) => void): void {
    if (limit === this.limit) return;
    this.limit = limit;
    log(limit === 'limit:pages' ? 'limit:pages reached: only requisites of the saved pages are fetched now' : `${limit} reached: taking no new batch`);
  }

  private failWith(e: unknown): void {
    this.fatal ??= e instanceof Error ? e : new Error(String(e));
    this.abort.abort();
  }

  /**
   * One lease: robots.txt first if no worker has it yet, then the batch (a focused harvest's judged
   * against the pages committed until now), then its commit.
   */
  private async serve(lease: Lease): Promise<void> {
    try {
      const robots = await this.robots.for(lease.site, lease.robots);
      const focus = this.tools.focus;
      if (focus !== null) await this.link.retry('reading the pages judged', () => focus.sync(this.db), this.abort.signal);
      const result = await runBatch(this.tools, lease, robots);
      // Abandoned URLs are given back even when stopping, so they need not wait for the timeout;
      // a commit that lost the database is tried again until it answers (or the worker gives up).
      const kept = await this.link.retry(
        `committing lease ${lease.id}`,
        () => commitBatch(this.db, this.o.id, lease, result, this.job.traps.maxQueryVariantsPerPath, this.tools.focus),
        this.abort.signal,
      );
      if (!kept) this.failWith(new ClusterWorkerError(`lease ${lease.id} was taken back: this worker was declared dead; it stops`));
    } catch (e) {
      this.failWith(e);
    }
  }
}
