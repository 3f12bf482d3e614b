import type { CrawlEvent, CrawlState, ProgressEvent, SkipReason } from '../../../shared/crawl.js';
import { HARVEST_VERSION, userAgentFor, type Job } from '../../../shared/job.js';
import { FetchError } from '../fetch/errors.js';
import { Fetcher, type FetchResponse } from '../fetch/fetcher.js';
import { HostGateRegistry, type HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL, robotsPolicyFrom, robotsUrlFor, type RobotsPolicy } from '../politeness/robots.js';
import { workerForSite } from '../politeness/shards.js';
import type { Archive } from '../store/archive.js';
import type { FetchOutcome, LinkRow, PayloadCapture, QueuedRow, RobotsRow, StoredOriginal } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { ExchangeLocation } from '../warc/types.js';
import { WarcWriter } from '../warc/writer.js';
import { documentKind, packOriginal, ReferenceMemo } from './documents.js';
import { ByteBudget } from './byteBudget.js';
import { DocumentPool, type PreparedTicket } from './documentPool.js';
import type { SaveFailure } from './documentWork.js';
import { finalizeMirror, writeEntryPage } from './finalize.js';
import { Frontier } from './frontier.js';
import { ProgressMeter } from './progress.js';

export interface CrawlOptions {
  /** Shared by every crawl in the process so concurrent jobs stay polite to a common host. */
  gates?: HostGates;
  /** Concurrency lanes; each site belongs to exactly one, chosen by rendezvous hashing. */
  lanes?: number;
  /** Requests one lane may have running at once (raised to the per-host limit if lower). */
  laneCapacity?: number;
  onEvent?: (e: CrawlEvent) => void;
  /** Progress event period; default DEFAULT_PROGRESS_INTERVAL_MS. */
  progressIntervalMs?: number;
}

const PARSE_BUDGET_BYTES = 2 * 1024 * 1024;
/** Payload digests the WARC writer keeps in memory (some 400 bytes each; its default is 50,000). */
const REMEMBERED_DIGESTS = 4_096;

/**
 * Under the 250 ms the UI promises between progress events, with room for a busy event loop: the
 * timer's turn can come late, so every finished request also emits one once this much has passed.
 */
export const DEFAULT_PROGRESS_INTERVAL_MS = 200;

/** A site is an origin: robots.txt applies per origin, politeness per host (the gate key). */
interface SiteWork {
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

interface Lane {
  name: string;
  active: number;
  capacity: number;
  sites: SiteWork[];
  cursor: number;
}

const BUFFER_SIZE = 64;
const ROBOTS_MAX_REDIRECTS = 5;
/** A robots.txt that answers 5xx or not at all is asked again this many times before the site is given up. */
const ROBOTS_ATTEMPTS = 3;
const ROBOTS_RETRY_MS = 5_000;
const USER_AGENT_TOKEN = 'Harvest';
/** How often the crawl time is checkpointed, so a killed crawl still counts most of its time. */
const DURATION_CHECKPOINT_MS = 5_000;
/**
 * How often the catalogue's log is copied into the database, right after a progress event: about a
 * second of crawling makes a checkpoint of some 100 ms, well inside the gap to the next event.
 */
const WAL_CHECKPOINT_MS = 1_000;

/** Errors that concern one URL's file (a name clash, a name too long): that URL fails, the crawl goes on. */
const PER_URL_FS_ERRORS = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG', 'EINVAL']);

/**
 * One run of a crawl over an archive: breadth-first per site, politeness per host, every outcome
 * committed to the catalogue as it happens, so a pause, a quit or a kill loses at most the requests
 * in flight. A Crawl runs once; resume with a new Crawl on the same archive.
 */
export class Crawl {
  private readonly job: Job;
  private readonly gates: HostGates;
  private readonly fetcher: Fetcher;
  private readonly meter: ProgressMeter;
  private readonly frontier: Frontier;
  private readonly lanes: Lane[];
  private readonly sites = new Map<string, SiteWork>();
  private readonly leased = new Set<number>();
  private readonly memo = new ReferenceMemo();
  private readonly inFlight = new Map<AbortController, string>();
  /**
   * First captures of payloads written to the WARC, saved with the next outcome rather than in a
   * commit of their own (each commit rewrites every page it touches in the WAL).
   */
  private unsavedCaptures: [string, PayloadCapture][] = [];
  /**
   * Source bytes of the documents parsed and not yet saved. A parsed page holds its decoded source,
   * reference slots and links (some 5 MB for a page of 10,000 links) while its WARC records queue;
   * without a bound every connection's page would be held at once.
   */
  private readonly parseBudget = new ByteBudget(PARSE_BUDGET_BYTES);
  private readonly emit: (e: CrawlEvent) => void;
  private state: CrawlState | 'new' | 'finishing' = 'new';
  /** The final rewrite pass's progress, once it has started. */
  private finishing: { done: number; total: number } | null = null;
  private stopReason: SkipReason | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAtMs = Infinity;
  private progressTimer: NodeJS.Timeout | null = null;
  private readonly progressIntervalMs: number;
  private lastProgressMs = 0;
  /** Responses being parsed, recorded and saved after their request finished, over all sites. */
  private processing = 0;
  private deadlineTimer: NodeJS.Timeout | null = null;
  private unsubscribeGates: (() => void) | null = null;
  private runStartedMs = 0;
  private lastDurationCheckpointMs = 0;
  private lastWalCheckpointMs = 0;
  private readonly priorDurationMs: number;
  private htmlPages: number;
  private settle: ((s: CrawlState) => void) | null = null;
  private fatal: Error | null = null;
  private warc: WarcWriter | null = null;
  private documents: DocumentPool | null = null;

  constructor(
    private readonly archive: Archive,
    private readonly opts: CrawlOptions = {},
  ) {
    this.job = archive.job;
    this.gates = opts.gates ?? new HostGateRegistry();
    this.emit = opts.onEvent ?? (() => {});
    this.progressIntervalMs = opts.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    const c = archive.catalogue;
    this.meter = new ProgressMeter(c.countByState(), c.countBySkipReason(), c.totalBytes());
    this.htmlPages = c.htmlPagesArchived();
    this.priorDurationMs = Number(c.getMeta('duration_ms') ?? '0');
    this.fetcher = new Fetcher({
      ...this.job.fetch,
      userAgent: userAgentFor(this.job),
      connectionsPerOrigin: this.job.politeness.perHostConnections,
    });
    this.frontier = new Frontier(this.job, c, this.meter, (site) => this.siteHasWork(site));
    const max = this.job.limits.maxPages;
    this.frontier.pagesLimitReached = max !== null && this.htmlPages >= max;
    const capacity = Math.max(opts.laneCapacity ?? 8, this.job.politeness.perHostConnections);
    this.lanes = Array.from({ length: Math.max(1, opts.lanes ?? 4) }, (_, i) => ({
      name: `lane-${i}`,
      active: 0,
      capacity,
      sites: [],
      cursor: 0,
    }));
  }

  get crawlState(): CrawlState {
    if (this.state === 'new') return 'paused';
    return this.state === 'finishing' ? 'running' : this.state;
  }

  /** Why the run stopped with state 'failed'. */
  get failure(): Error | null {
    return this.fatal;
  }

  /** Runs until the crawl finishes or is paused; resolves with the state it stopped in. */
  async run(): Promise<CrawlState> {
    if (this.state !== 'new') throw new Error('a Crawl runs once; start a new one to resume');
    this.state = 'paused';
    const c = this.archive.catalogue;
    this.documents = new DocumentPool({ mirrorRoot: this.archive.mirror.root, tmpDir: this.archive.mirror.tmpDir });
    try {
      await this.documents.ready();
      if (this.job.warc.enabled) {
        this.warc = await WarcWriter.open({
          dir: this.archive.warcDir,
          prefix: 'harvest',
          software: `Harvest/${HARVEST_VERSION}`,
          maxFileBytes: this.job.warc.maxFileBytes,
          // Payloads recorded in earlier runs become revisits too.
          seenDigest: (digest) => c.captureByDigest(digest),
          // The catalogue answers for every digest, so the writer's own memory only saves a lookup for recent ones.
          maxRememberedDigests: REMEMBERED_DIGESTS,
          onOriginal: (digest, capture) => this.unsavedCaptures.push([digest, capture]),
          checkpoints: { get: (file) => c.warcCheckpoint(file), set: (file, end) => c.setWarcCheckpoint(file, end) },
          info: {
            isPartOf: this.job.name,
            robots: this.job.politeness.respectRobots ? 'obey' : 'ignore',
            'http-header-user-agent': userAgentFor(this.job),
          },
        });
      }
      c.transaction(() => {
        if (c.getMeta('started_at') === null) c.setMeta('started_at', new Date().toISOString());
        c.setMeta('state', 'running');
        for (const seed of this.job.seeds) {
          const url = canonicalize(seed);
          if (url === null) continue;
          this.frontier.admitSeed(url);
        }
      });
    } catch (e) {
      // Its threads would keep the process alive.
      await this.documents.close();
      await this.warc?.close().catch(() => {});
      throw e;
    }
    for (const site of c.sitesWithQueued()) this.siteHasWork(site);
    this.state = 'running';
    this.runStartedMs = Date.now();
    this.lastDurationCheckpointMs = this.runStartedMs;
    this.lastWalCheckpointMs = this.runStartedMs;
    this.emit({ type: 'state', state: 'running' });
    const done = new Promise<CrawlState>((resolve) => (this.settle = resolve));
    this.progressTimer = setInterval(() => this.tick(), this.progressIntervalMs);
    this.unsubscribeGates = this.gates.onRelease(() => this.pump());
    this.armDurationLimit();
    this.checkByteLimit();
    this.pump();
    return done;
  }

  /** Stops dispatching and abandons in-flight requests; they stay queued for the next run. */
  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'pausing';
    this.emit({ type: 'state', state: 'pausing' });
    for (const abort of this.inFlight.keys()) abort.abort();
    this.maybeSettle();
  }

  private elapsedMs(): number {
    return this.priorDurationMs + (this.runStartedMs ? Date.now() - this.runStartedMs : 0);
  }

  private tickIfDue(): void {
    if (this.progressTimer !== null && Date.now() - this.lastProgressMs >= this.progressIntervalMs) this.tick();
  }

  private tick(): void {
    const now = Date.now();
    this.lastProgressMs = now;
    if (now - this.lastDurationCheckpointMs >= DURATION_CHECKPOINT_MS) {
      this.lastDurationCheckpointMs = now;
      this.archive.catalogue.setMeta('duration_ms', String(this.elapsedMs()));
    }
    this.emit(this.progress());
    if (now - this.lastWalCheckpointMs >= WAL_CHECKPOINT_MS) {
      this.archive.catalogue.checkpoint();
      this.lastWalCheckpointMs = Date.now();
    }
  }

  private progress(): ProgressEvent {
    const snapshot = this.meter.snapshot(this.elapsedMs(), [...this.inFlight.values()], this.inFlight.size);
    return this.finishing === null ? snapshot : { ...snapshot, finishing: { ...this.finishing } };
  }

  private siteHasWork(site: string): void {
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
      robots: this.job.politeness.respectRobots ? null : ALLOW_ALL,
      robotsFetching: false,
      robotsAttempts: 0,
      robotsRetryAtMs: 0,
    };
    this.sites.set(site, s);
    lane.sites.push(s);
  }

  private refill(s: SiteWork): void {
    if (s.buffer.length > 0 || s.exhausted) return;
    const rows = this.archive.catalogue.nextQueued(s.site, this.leased.size + BUFFER_SIZE);
    for (const r of rows) if (!this.leased.has(r.id)) s.buffer.push(r);
    if (s.buffer.length === 0) s.exhausted = true;
  }

  /** Starts whatever the politeness rules allow now and sets a timer for the next opening. */
  private pump(): void {
    if (this.state === 'pausing') this.maybeSettle();
    if (this.state !== 'running') return;
    this.tickIfDue();
    let wakeInMs = Infinity;
    for (const lane of this.lanes) {
      let idle = 0;
      while (lane.active < lane.capacity && idle < lane.sites.length) {
        const s = lane.sites[lane.cursor % lane.sites.length]!;
        lane.cursor++;
        const started = this.tryStart(s);
        if (started === true) idle = 0;
        else {
          idle++;
          if (typeof started === 'number') wakeInMs = Math.min(wakeInMs, started);
        }
      }
    }
    // Finished means nothing running and nothing queued, never the queue alone.
    if (this.idle() && [...this.sites.values()].every((s) => s.exhausted)) {
      void this.complete();
      return;
    }
    this.wakeIn(wakeInMs);
  }

  private wakeIn(ms: number): void {
    if (ms === Infinity) return;
    const at = Date.now() + Math.max(1, ms);
    if (this.wakeTimer !== null && this.wakeAtMs <= at) return;
    if (this.wakeTimer !== null) clearTimeout(this.wakeTimer);
    this.wakeAtMs = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeAtMs = Infinity;
      this.pump();
    }, at - Date.now());
  }

  /** true: a task started; a number: ms until this site may start one; false: nothing to do now. */
  private tryStart(s: SiteWork): boolean | number {
    this.refill(s);
    if (s.buffer.length === 0 || s.processing >= this.job.politeness.perHostConnections) return false;
    if (s.robots === null) return this.startRobots(s);
    const policy = s.robots;
    // URLs that need no request are settled here, without spending a politeness slot on them.
    while (!policy.isAllowed(s.buffer[0]!.url)) {
      this.skipRow(s.buffer.shift()!, 'robots');
      this.refill(s);
      if (s.buffer.length === 0) return false;
    }
    const acquired = this.gates.tryAcquire(s.host, this.limitsFor(policy));
    if (typeof acquired === 'number') return acquired;
    const row = s.buffer.shift()!;
    this.leased.add(row.id);
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
      this.processing++;
    };
    this.process(row, fetched)
      .catch((e: unknown) => this.fail(e))
      .finally(() => {
        if (fetching) {
          fetching = false;
          acquired();
          s.lane.active--;
        } else {
          s.processing--;
          this.processing--;
        }
        this.leased.delete(row.id);
        this.pump();
      });
    return true;
  }

  private limitsFor(policy: RobotsPolicy) {
    return {
      maxConnections: this.job.politeness.perHostConnections,
      delayMs: Math.max(this.job.politeness.delayMs, policy.crawlDelayMs),
    };
  }

  private startRobots(s: SiteWork): boolean | number {
    if (s.robotsFetching) return false;
    const stored = this.archive.catalogue.getRobots(s.site);
    if (stored) {
      s.robots = robotsPolicyFrom(stored, robotsUrlFor(s.site), USER_AGENT_TOKEN);
      return this.tryStart(s);
    }
    const wait = s.robotsRetryAtMs - Date.now();
    if (wait > 0) return wait;
    const acquired = this.gates.tryAcquire(s.host, this.limitsFor(ALLOW_ALL));
    if (typeof acquired === 'number') return acquired;
    s.robotsFetching = true;
    s.lane.active++;
    this.fetchRobots(s)
      .catch((e: unknown) => this.fail(e))
      .finally(() => {
        acquired();
        s.robotsFetching = false;
        s.lane.active--;
        this.pump();
      });
    return true;
  }

  private async fetchRobots(s: SiteWork): Promise<void> {
    let url = robotsUrlFor(s.site);
    let row: RobotsRow;
    const abort = new AbortController();
    this.inFlight.set(abort, url);
    try {
      row = { http_status: null, body: null, error: `more than ${ROBOTS_MAX_REDIRECTS} redirects` };
      for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
        const res = await this.fetcher.fetch(url, { signal: abort.signal });
        await this.warc?.writeExchange(exchangeFromFetch(res));
        if (res.status >= 300 && res.status < 400 && res.location) {
          url = new URL(res.location, url).href;
          continue;
        }
        row = { http_status: res.status, body: res.body.toString('utf8'), error: null };
        break;
      }
    } catch (e) {
      if (!(e instanceof FetchError)) throw e;
      if (e.code === 'aborted') return;
      row = { http_status: null, body: null, error: `${e.code}: ${e.message}` };
    } finally {
      this.inFlight.delete(abort);
    }
    // An unreachable robots.txt means keep out (RFC 9309), but only for now: ask again a few times
    // before recording it, so a passing outage doesn't cost the whole site.
    const unavailable = row.error !== null || (row.http_status ?? 0) >= 500;
    s.robotsAttempts++;
    if (unavailable && s.robotsAttempts < ROBOTS_ATTEMPTS) {
      s.robotsRetryAtMs = Date.now() + ROBOTS_RETRY_MS * s.robotsAttempts;
      return;
    }
    this.archive.catalogue.putRobots(s.site, row);
    s.robots = robotsPolicyFrom(row, robotsUrlFor(s.site), USER_AGENT_TOKEN);
  }

  private skipRow(row: QueuedRow, reason: SkipReason): void {
    this.archive.catalogue.skip(row, reason);
    this.meter.finished('skipped', 0, reason);
    this.emit({ type: 'url', url: row.url, state: 'skipped', skipReason: reason });
  }

  private record(row: QueuedRow, outcome: FetchOutcome): void {
    const c = this.archive.catalogue;
    c.transaction(() => {
      this.saveCaptures();
      c.recordOutcome(row, outcome);
    });
    this.meter.finished(outcome.state, outcome.bytes ?? 0);
    this.emit({
      type: 'url',
      url: row.url,
      state: outcome.state,
      ...(outcome.httpStatus !== null && { httpStatus: outcome.httpStatus }),
      ...(outcome.error !== null && { error: outcome.error }),
      ...(outcome.bytes !== null && { bytes: outcome.bytes }),
      ...(outcome.localPath !== null && { localPath: outcome.localPath }),
    });
  }

  private saveCaptures(): void {
    for (const [digest, capture] of this.unsavedCaptures) this.archive.catalogue.putCapture(digest, capture);
    this.unsavedCaptures = [];
  }

  private failed(row: QueuedRow, error: string, res?: FetchResponse): void {
    this.record(row, {
      state: 'failed',
      httpStatus: res?.status ?? null,
      contentType: res?.contentType ?? null,
      bytes: res?.body.length ?? null,
      localPath: null,
      redirectToId: null,
      error,
      title: null,
    });
  }

  private async process(row: QueuedRow, fetched: () => void): Promise<void> {
    const abort = new AbortController();
    this.inFlight.set(abort, row.url);
    let res: FetchResponse;
    try {
      res = await this.fetcher.fetch(row.url, { signal: abort.signal });
      fetched();
      this.pump();
    } catch (e) {
      if (!(e instanceof FetchError)) throw e;
      // Abandoned by a pause or a limit: the URL stays queued, unless a limit ended the crawl.
      if (e.code === 'aborted') {
        if (this.stopReason !== null) this.skipRow(row, this.stopReason);
        return;
      }
      this.failed(row, `${e.code}: ${e.message}`);
      return;
    } finally {
      this.inFlight.delete(abort);
    }
    // The WARC record is written before the outcome commits: a kill in between re-fetches the URL
    // (one extra record) but never leaves an outcome without its record.
    const kind = res.status >= 200 && res.status < 300 ? documentKind(res.contentType, row.url) : 'other';
    const giveBack = kind === 'other' ? null : await this.parseBudget.take(res.body.length);
    let doc: PreparedTicket | null = null;
    try {
      if (kind !== 'other') {
        // With a WARC the response record holds the original; without one the catalogue keeps it.
        doc = await this.documents!.prepare({ kind, body: res.body, url: row.url, contentType: res.contentType, packOriginal: this.warc === null });
      }
      const recorded = await this.recordExchange(res, doc);
      if (res.status >= 300 && res.status < 400 && res.location !== null) this.recordRedirect(row, res);
      else if (doc !== null) {
        const handedOver = doc;
        doc = null;
        if (await this.archiveDocument(row, res, handedOver, recorded) && kind === 'html') this.countPage();
      } else if (res.status >= 200 && res.status < 300) await this.archiveFile(row, res);
      else {
        this.record(row, {
          state: 'http-error',
          httpStatus: res.status,
          contentType: res.contentType,
          bytes: res.body.length,
          localPath: null,
          redirectToId: null,
          error: null,
          title: null,
        });
      }
    } finally {
      if (doc !== null) this.documents!.discard(doc);
      giveBack?.();
    }
    this.checkByteLimit();
  }

  /** Records the exchange in the WARC, with the document's outlinks in a metadata record; null without a WARC. */
  private async recordExchange(res: FetchResponse, doc: PreparedTicket | null): Promise<ExchangeLocation | null> {
    if (!this.warc) return null;
    const at = await this.warc.writeExchange(exchangeFromFetch(res));
    if (doc && doc.links.length > 0) {
      await this.warc.writeMetadata({
        url: res.url,
        date: res.startedAt,
        concurrentTo: at.recordId,
        outlinks: doc.links.map((l) => ({ url: l.url, kind: l.kind })),
      });
    }
    return at;
  }

  private recordRedirect(row: QueuedRow, res: FetchResponse): void {
    const c = this.archive.catalogue;
    const target = canonicalize(res.location!, row.url);
    const hops = row.redirect_hops + 1;
    c.transaction(() => {
      let targetId: number | null = null;
      let error: string | null = null;
      if (target === null) error = `unusable redirect target: ${res.location!.slice(0, 200)}`;
      else if (hops > this.job.fetch.maxRedirects) error = `more than ${this.job.fetch.maxRedirects} redirects`;
      else {
        // Seeds and their redirect chains are the only URLs at depth 0.
        if (row.depth === 0) this.frontier.followSeedRedirect(target);
        targetId = this.frontier.admit({
          url: target,
          parentId: row.id,
          parentDepth: row.depth,
          sameDepth: true,
          via: 'redirect',
          requisite: row.requisite === 1,
          parentInScope: this.frontier.scope.inScope(row.url),
          typeHint: row.type_hint,
          redirectHops: hops,
        }).id;
      }
      this.record(row, {
        state: 'redirect',
        httpStatus: res.status,
        contentType: res.contentType,
        bytes: res.body.length,
        localPath: null,
        redirectToId: targetId,
        error,
        title: null,
      });
    });
  }

  private archivedOutcome(row: QueuedRow, res: FetchResponse): FetchOutcome {
    return {
      state: 'archived',
      httpStatus: res.status,
      contentType: res.contentType,
      bytes: res.body.length,
      localPath: localPathFor(row.url, res.contentType),
      redirectToId: null,
      error: null,
      title: null,
    };
  }

  /** A response saved as it came: anything but HTML and CSS. */
  private async archiveFile(row: QueuedRow, res: FetchResponse): Promise<void> {
    const outcome = this.archivedOutcome(row, res);
    const failure = await this.documents!.write(outcome.localPath!, res.body);
    if (failure !== null) this.failedToSave(row, res, outcome.localPath!, failure);
    else this.record(row, outcome);
  }

  /** A file that can't be saved under its name fails that URL only; anything else stops the crawl. */
  private failedToSave(row: QueuedRow, res: FetchResponse, localPath: string, failure: SaveFailure): void {
    if (!PER_URL_FS_ERRORS.has(failure.code)) throw Object.assign(new Error(failure.message), { code: failure.code });
    this.failed(row, `cannot save as ${localPath}: ${failure.code}`, res);
  }

  /**
   * An HTML or CSS document parsed in a document worker: its links are admitted in one transaction,
   * the worker rewrites and saves the copy, then its link rows, original bytes and outcome commit
   * in a second. A kill in between leaves the URL queued with its links already known (the copy, if
   * written, is overwritten when the URL is fetched again). Returns whether the document was saved.
   */
  private async archiveDocument(row: QueuedRow, res: FetchResponse, doc: PreparedTicket, recorded: ExchangeLocation | null): Promise<boolean> {
    const c = this.archive.catalogue;
    const outcome = this.archivedOutcome(row, res);
    const localPath = outcome.localPath!;
    const written: (string | null)[] = [];
    const links: LinkRow[] = [];
    let saving = false;
    try {
      const inScope = this.frontier.scope.inScope(row.url);
      c.transaction(() => {
        for (const link of doc.links) {
          const target =
            link.canonical === null
              ? null
              : this.frontier.admit({
                  url: link.canonical,
                  parentId: row.id,
                  parentDepth: row.depth,
                  sameDepth: false,
                  via: link.kind,
                  requisite: link.requisite,
                  parentInScope: inScope,
                  typeHint: link.typeHint,
                  redirectHops: 0,
                });
          const place = target === null ? null : this.memo.plannedTarget(target, link.typeHint);
          // An archived target's file is final, so a reference to it never needs redoing.
          if (target !== null && target.state !== 'archived') {
            links.push({ toId: target.id, kind: link.kind, text: link.text || null, written: place });
          }
          written.push(place);
        }
      });
      saving = true;
    } finally {
      if (!saving) this.documents!.discard(doc);
    }
    const failure = await this.documents!.save(doc, { localPath, written });
    if (failure !== null) {
      // Its links still stand: they were found, and are crawled like any others.
      this.failedToSave(row, res, localPath, failure);
      return false;
    }
    c.transaction(() => {
      c.replaceLinks(row.id, links);
      c.putOriginal(row.id, res.contentType, originalOf(res, doc, recorded));
      this.record(row, { ...outcome, title: doc.title });
    });
    return true;
  }

  private countPage(): void {
    this.htmlPages++;
    const max = this.job.limits.maxPages;
    if (max !== null && this.htmlPages >= max && !this.frontier.pagesLimitReached) {
      this.frontier.pagesLimitReached = true;
      this.stopQueue('limit:pages', { requisitesToo: false });
    }
  }

  private checkByteLimit(): void {
    const max = this.job.limits.maxBytes;
    if (max !== null && this.meter.counts.bytes >= max && this.stopReason === null) {
      this.stopQueue('limit:bytes', { requisitesToo: true });
    }
  }

  private armDurationLimit(): void {
    const max = this.job.limits.maxDurationMs;
    if (max === null) return;
    const stop = () => {
      this.stopQueue('limit:duration', { requisitesToo: true });
      for (const abort of this.inFlight.keys()) abort.abort();
    };
    const left = max - this.priorDurationMs;
    if (left <= 0) stop();
    else this.deadlineTimer = setTimeout(stop, left);
  }

  /** A limit was reached: what is still queued (and not running) is recorded as skipped for it. */
  private stopQueue(reason: SkipReason, opts: { requisitesToo: boolean }): void {
    const n = this.archive.catalogue.skipQueued(reason, {
      keepRequisites: !opts.requisitesToo,
      except: [...this.leased],
    });
    if (opts.requisitesToo) this.stopReason = reason;
    this.meter.bulkSkipped(n, reason);
    for (const s of this.sites.values()) {
      s.buffer = opts.requisitesToo ? [] : s.buffer.filter((r) => r.requisite === 1);
      if (opts.requisitesToo) s.exhausted = true;
    }
    this.emit({ type: 'state', state: this.crawlState, message: `${reason} reached` });
  }

  private fail(e: unknown): void {
    this.fatal ??= e instanceof Error ? e : new Error(String(e));
    if (this.state !== 'running') return;
    this.state = 'pausing';
    for (const abort of this.inFlight.keys()) abort.abort();
    this.maybeSettle();
  }

  /** Nothing on the wire and nothing being archived. */
  private idle(): boolean {
    return this.processing === 0 && this.lanes.every((l) => l.active === 0);
  }

  private maybeSettle(): void {
    if (this.state !== 'pausing') return;
    if (!this.idle()) return;
    void this.stop(this.fatal ? 'failed' : 'paused');
  }

  private async complete(): Promise<void> {
    if (this.state !== 'running') return;
    // Not 'pausing': nothing is running, and a pause must not settle the run under the finaliser.
    this.state = 'finishing';
    try {
      await finalizeMirror(this.archive, this.documents!, (done, total) => {
        this.finishing = { done, total };
        // The ticks report the pass while it runs; its start and end are reported as they happen.
        if (done === 0 || done === total) this.emit(this.progress());
      });
    } catch (e) {
      this.fatal = e instanceof Error ? e : new Error(String(e));
    }
    await this.stop(this.fatal ? 'failed' : 'finished');
  }

  private async stop(wanted: CrawlState): Promise<void> {
    if (this.settle === null) return;
    const settle = this.settle;
    this.settle = null;
    let final = wanted;
    for (const t of [this.wakeTimer, this.deadlineTimer]) if (t) clearTimeout(t);
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.unsubscribeGates?.();
    try {
      const c = this.archive.catalogue;
      c.transaction(() => {
        this.saveCaptures();
        c.setMeta('duration_ms', String(this.elapsedMs()));
        c.setMeta('state', final);
        if (final === 'finished') c.setMeta('finished_at', new Date().toISOString());
      });
      if (final !== 'finished') await writeEntryPage(this.archive);
    } catch (e) {
      this.fatal ??= e instanceof Error ? e : new Error(String(e));
      final = 'failed';
    } finally {
      await this.fetcher.close().catch(() => {});
      await this.documents?.close();
      await this.warc?.close().catch((e: unknown) => {
        this.fatal ??= e instanceof Error ? e : new Error(String(e));
        final = 'failed';
      });
      this.state = final;
      this.emit(this.meter.snapshot(this.elapsedMs(), [], 0));
      this.emit({
        type: 'state',
        state: final,
        ...(this.fatal ? { message: this.fatal.message } : this.stopReason ? { message: `${this.stopReason} reached` } : {}),
      });
      settle(final);
    }
  }
}

/**
 * Where a saved document's original bytes are kept for the final rewrite pass: its response record,
 * or for a revisit (an identical payload at another URL, such as a page with a tracking parameter)
 * the record of the payload's first capture. Deflated in the catalogue without a WARC, or when
 * that first capture's place is unknown (recorded by an older version).
 */
function originalOf(res: FetchResponse, doc: PreparedTicket, recorded: ExchangeLocation | null): StoredOriginal {
  if (recorded === null) return { packed: doc.original ?? packOriginal(res.body) };
  const contentEncoding = res.headers['content-encoding'] ?? null;
  if (recorded.revisitOf === undefined) return { record: { file: recorded.file, offset: recorded.offset, length: recorded.length }, contentEncoding };
  const first = recorded.revisitOf.place;
  return first !== undefined ? { record: first, contentEncoding } : { packed: packOriginal(res.body) };
}
