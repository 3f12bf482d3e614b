import type { CrawlEvent, CrawlState, SkipReason } from '../../../shared/crawl.js';
import { userAgentFor, type Job } from '../../../shared/job.js';
import { FetchError } from '../fetch/errors.js';
import { Fetcher, type FetchResponse } from '../fetch/fetcher.js';
import { HostGateRegistry } from '../politeness/hostGate.js';
import { robotsPolicyFrom, robotsUrlFor, type RobotsPolicy } from '../politeness/robots.js';
import { workerForSite } from '../politeness/shards.js';
import type { Archive } from '../store/archive.js';
import type { QueuedRow } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { documentKind, packOriginal, parseDocument, ReferenceMemo, renderDocument } from './documents.js';
import { finalizeMirror, writeEntryPage } from './finalize.js';
import { Frontier } from './frontier.js';
import { ProgressMeter } from './progress.js';

export interface CrawlOptions {
  /** Shared by every crawl in the process so concurrent jobs stay polite to a common site. */
  gates?: HostGateRegistry;
  /** Concurrency lanes; each site belongs to exactly one, chosen by rendezvous hashing. */
  workers?: number;
  onEvent?: (e: CrawlEvent) => void;
  /** Progress event period. */
  progressIntervalMs?: number;
}

interface SiteWork {
  site: string;
  origin: string;
  worker: Worker;
  buffer: QueuedRow[];
  /** No queued rows left in the catalogue beyond those buffered or in flight. */
  exhausted: boolean;
  robots: RobotsPolicy | 'unknown' | 'fetching';
}

interface Worker {
  name: string;
  active: number;
  sites: SiteWork[];
  cursor: number;
}

const BUFFER_SIZE = 64;
const ROBOTS_MAX_REDIRECTS = 5;
const USER_AGENT_TOKEN = 'Harvest';

/**
 * One run of a crawl over an archive: breadth-first per site, politeness per site, every outcome
 * committed to the catalogue as it happens, so a pause, a quit or a kill loses at most the requests
 * in flight.
 */
export class Crawl {
  private readonly job: Job;
  private readonly gates: HostGateRegistry;
  private readonly fetcher: Fetcher;
  private readonly meter: ProgressMeter;
  private readonly frontier: Frontier;
  private readonly workers: Worker[];
  private readonly sites = new Map<string, SiteWork>();
  private readonly leased = new Set<number>();
  private readonly memo = new ReferenceMemo();
  private readonly inFlight = new Map<number, { url: string; abort: AbortController }>();
  private readonly emit: (e: CrawlEvent) => void;
  private state: CrawlState | 'finishing' = 'paused';
  private stopReason: SkipReason | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private progressTimer: NodeJS.Timeout | null = null;
  private deadlineTimer: NodeJS.Timeout | null = null;
  private runStartedMs = 0;
  private readonly priorDurationMs: number;
  private htmlPages: number;
  private settle: ((s: CrawlState) => void) | null = null;
  private fatal: Error | null = null;

  constructor(
    private readonly archive: Archive,
    private readonly opts: CrawlOptions = {},
  ) {
    this.job = archive.job;
    this.gates = opts.gates ?? new HostGateRegistry();
    this.emit = opts.onEvent ?? (() => {});
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
    const n = Math.max(1, opts.workers ?? 4);
    this.workers = Array.from({ length: n }, (_, i) => ({ name: `worker-${i}`, active: 0, sites: [], cursor: 0 }));
  }

  get crawlState(): CrawlState {
    return this.state === 'finishing' ? 'running' : this.state;
  }

  /** Runs until the crawl finishes or is paused; resolves with the state it stopped in. */
  async run(): Promise<CrawlState> {
    if (this.state === 'running') throw new Error('crawl is already running');
    const c = this.archive.catalogue;
    c.transaction(() => {
      if (c.getMeta('started_at') === null) c.setMeta('started_at', new Date().toISOString());
      c.setMeta('state', 'running');
      for (const seed of this.job.seeds) {
        const url = canonicalize(seed);
        if (url === null) continue;
        this.frontier.admit({
          url,
          parentId: null,
          parentDepth: 0,
          sameDepth: true,
          via: 'seed',
          requisite: false,
          parentInScope: true,
          typeHint: 'html',
          redirectHops: 0,
        });
      }
    });
    for (const site of c.sitesWithQueued()) this.siteHasWork(site);
    this.state = 'running';
    this.runStartedMs = Date.now();
    this.emit({ type: 'state', state: 'running' });
    const done = new Promise<CrawlState>((resolve) => (this.settle = resolve));
    const interval = this.opts.progressIntervalMs ?? 250;
    this.progressTimer = setInterval(() => this.emitProgress(), interval);
    this.armDurationLimit();
    this.checkByteLimit();
    this.pump();
    const final = await done;
    return final;
  }

  /** Stops dispatching and abandons in-flight requests; they stay queued for the next run. */
  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'pausing';
    this.emit({ type: 'state', state: 'pausing' });
    for (const f of this.inFlight.values()) f.abort.abort();
    this.maybeSettle();
  }

  private elapsedMs(): number {
    return this.priorDurationMs + (this.runStartedMs ? Date.now() - this.runStartedMs : 0);
  }

  private emitProgress(): void {
    const current = [...this.inFlight.values()].map((f) => f.url);
    this.emit(this.meter.snapshot(this.elapsedMs(), current, this.inFlight.size));
  }

  private siteHasWork(site: string): void {
    let s = this.sites.get(site);
    if (!s) {
      const worker = this.workers.find((w) => w.name === workerForSite(site, this.workers.map((x) => x.name)))!;
      s = { site, origin: site, worker, buffer: [], exhausted: false, robots: 'unknown' };
      this.sites.set(site, s);
      worker.sites.push(s);
    } else {
      s.exhausted = false;
    }
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
    let wakeInMs = Infinity;
    for (const w of this.workers) {
      const slots = this.job.politeness.perHostConnections * Math.max(1, w.sites.length);
      let idle = 0;
      while (w.active < slots && idle < w.sites.length) {
        const s = w.sites[w.cursor % w.sites.length]!;
        w.cursor++;
        const started = this.tryStart(s);
        if (started === true) idle = 0;
        else {
          idle++;
          if (typeof started === 'number') wakeInMs = Math.min(wakeInMs, started);
        }
      }
    }
    if (this.inFlight.size === 0 && [...this.sites.values()].every((s) => s.exhausted)) {
      void this.complete();
      return;
    }
    if (wakeInMs !== Infinity && this.wakeTimer === null) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.pump();
      }, Math.max(1, wakeInMs));
    }
  }

  /** true: a task started; a number: ms until this site may start one; false: nothing to do now. */
  private tryStart(s: SiteWork): boolean | number {
    this.refill(s);
    if (s.buffer.length === 0) return false;
    if (s.robots === 'fetching') return false;
    if (s.robots === 'unknown') {
      if (!this.job.politeness.respectRobots) {
        s.robots = { isAllowed: () => true, crawlDelayMs: 0 };
      } else {
        const stored = this.archive.catalogue.getRobots(s.site);
        if (stored) s.robots = robotsPolicyFrom(stored, robotsUrlFor(s.origin), USER_AGENT_TOKEN);
        else {
          s.robots = 'fetching';
          s.worker.active++;
          void this.fetchRobots(s).finally(() => {
            s.worker.active--;
            this.pump();
          });
          return true;
        }
      }
    }
    const policy = s.robots;
    const delayMs = Math.max(this.job.politeness.delayMs, policy.crawlDelayMs);
    const acquired = this.gates.tryAcquire(s.site, { maxConnections: this.job.politeness.perHostConnections, delayMs });
    if (typeof acquired === 'number') return acquired;
    const row = s.buffer.shift()!;
    this.leased.add(row.id);
    s.worker.active++;
    void this.process(row, policy)
      .catch((e: unknown) => this.fail(e as Error))
      .finally(() => {
        acquired();
        this.leased.delete(row.id);
        s.worker.active--;
        this.pump();
      });
    return true;
  }

  private async fetchRobots(s: SiteWork): Promise<void> {
    let url = robotsUrlFor(s.origin);
    let row: { http_status: number | null; body: string | null; error: string | null } = {
      http_status: null,
      body: null,
      error: 'not fetched',
    };
    const abort = new AbortController();
    const key = -1 - this.inFlight.size - Math.floor(Math.random() * 1e9);
    this.inFlight.set(key, { url, abort });
    try {
      for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
        const res = await this.fetcher.fetch(url, { signal: abort.signal });
        if (res.status >= 300 && res.status < 400 && res.location && hop < ROBOTS_MAX_REDIRECTS) {
          url = new URL(res.location, url).href;
          continue;
        }
        row = { http_status: res.status, body: res.body.toString('utf8'), error: null };
        break;
      }
    } catch (e) {
      if (abort.signal.aborted) {
        s.robots = 'unknown';
        return;
      }
      row = { http_status: null, body: null, error: (e as Error).message };
    } finally {
      this.inFlight.delete(key);
    }
    this.archive.catalogue.putRobots(s.site, row);
    s.robots = robotsPolicyFrom(row, robotsUrlFor(s.origin), USER_AGENT_TOKEN);
  }

  private async process(row: QueuedRow, robots: RobotsPolicy): Promise<void> {
    const c = this.archive.catalogue;
    if (!robots.isAllowed(row.url)) {
      c.skip(row, 'robots');
      this.meter.finished('skipped', 0, 'robots');
      this.emit({ type: 'url', url: row.url, state: 'skipped', skipReason: 'robots' });
      return;
    }
    if (this.frontier.pagesLimitReached && !row.requisite) {
      c.skip(row, 'limit:pages');
      this.meter.finished('skipped', 0, 'limit:pages');
      return;
    }
    const abort = new AbortController();
    this.inFlight.set(row.id, { url: row.url, abort });
    let res: FetchResponse;
    try {
      res = await this.fetcher.fetch(row.url, { signal: abort.signal });
    } catch (e) {
      if (abort.signal.aborted) return; // paused: stays queued
      if (!(e instanceof FetchError)) throw e;
      c.recordOutcome(row, {
        state: 'failed',
        httpStatus: null,
        contentType: null,
        bytes: null,
        localPath: null,
        redirectToId: null,
        error: `${e.code}: ${e.message}`,
        title: null,
      });
      this.meter.finished('failed', 0);
      this.emit({ type: 'url', url: row.url, state: 'failed', error: `${e.code}: ${e.message}` });
      return;
    } finally {
      this.inFlight.delete(row.id);
    }
    if (abort.signal.aborted) return;
    if (res.status >= 300 && res.status < 400 && res.location !== null) this.recordRedirect(row, res);
    else if (res.status >= 200 && res.status < 300) await this.archiveResponse(row, res);
    else {
      c.recordOutcome(row, {
        state: 'http-error',
        httpStatus: res.status,
        contentType: res.contentType,
        bytes: res.body.length,
        localPath: null,
        redirectToId: null,
        error: null,
        title: null,
      });
      this.meter.finished('http-error', res.body.length);
      this.emit({ type: 'url', url: row.url, state: 'http-error', httpStatus: res.status, bytes: res.body.length });
    }
    this.checkByteLimit();
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
        const t = this.frontier.admit({
          url: target,
          parentId: row.id,
          parentDepth: row.depth,
          sameDepth: true,
          via: 'redirect',
          requisite: row.requisite === 1,
          parentInScope: this.frontier.scope.inScope(row.url),
          typeHint: row.type_hint,
          redirectHops: hops,
        });
        targetId = t.id;
      }
      c.recordOutcome(row, {
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
    this.meter.finished('redirect', res.body.length);
    this.emit({ type: 'url', url: row.url, state: 'redirect', httpStatus: res.status });
  }

  private async archiveResponse(row: QueuedRow, res: FetchResponse): Promise<void> {
    const c = this.archive.catalogue;
    const localPath = localPathFor(row.url, res.contentType);
    const kind = documentKind(res.contentType, row.url);
    const inScope = this.frontier.scope.inScope(row.url);
    let data: Buffer = res.body;
    let title: string | null = null;
    if (kind !== 'other') {
      const doc = parseDocument(kind, res.body, row.url, res.contentType);
      title = doc.title;
      // Links are admitted and recorded first, then the file is written, then the outcome commits:
      // a committed 'archived' row always has its file, and a kill in between only re-fetches this URL.
      const original = packOriginal(res.body);
      const rendered = c.transaction(() => {
        const r = renderDocument(
          doc,
          localPath,
          this.memo,
          (link, canonical) =>
            this.frontier.admit({
              url: canonical,
              parentId: row.id,
              parentDepth: row.depth,
              sameDepth: false,
              via: link.kind,
              requisite: link.requisite,
              parentInScope: inScope,
              typeHint: link.typeHint,
              redirectHops: 0,
            }),
          (target, link) => this.memo.plannedTarget(target, link.typeHint),
        );
        c.replaceLinks(row.id, r.links);
        c.putOriginal(row.id, res.contentType, original);
        return r;
      });
      data = rendered.data;
    }
    await this.archive.mirror.write(localPath, data);
    c.recordOutcome(row, {
      state: 'archived',
      httpStatus: res.status,
      contentType: res.contentType,
      bytes: res.body.length,
      localPath,
      redirectToId: null,
      error: null,
      title,
    });
    this.meter.finished('archived', res.body.length);
    this.emit({ type: 'url', url: row.url, state: 'archived', httpStatus: res.status, bytes: res.body.length, localPath });
    if (kind === 'html') this.countPage();
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
    if (max !== null && this.meter.counts.bytes >= max) this.stopQueue('limit:bytes', { requisitesToo: true });
  }

  private armDurationLimit(): void {
    const max = this.job.limits.maxDurationMs;
    if (max === null) return;
    const left = max - this.priorDurationMs;
    const stop = () => {
      this.stopQueue('limit:duration', { requisitesToo: true });
      for (const f of this.inFlight.values()) f.abort.abort();
    };
    if (left <= 0) stop();
    else this.deadlineTimer = setTimeout(stop, left);
  }

  /** A limit was reached: what is still queued is recorded as skipped for that reason. */
  private stopQueue(reason: SkipReason, opts: { requisitesToo: boolean }): void {
    const c = this.archive.catalogue;
    const n = c.skipQueued(reason, { keepRequisites: !opts.requisitesToo });
    if (opts.requisitesToo) this.stopReason = reason;
    this.meter.bulkSkipped(n, reason);
    for (const s of this.sites.values()) {
      s.buffer = opts.requisitesToo ? [] : s.buffer.filter((r) => r.requisite === 1);
      if (opts.requisitesToo) s.exhausted = true;
    }
    this.emit({ type: 'state', state: this.crawlState, message: `${reason} reached` });
  }

  private fail(e: Error): void {
    this.fatal ??= e;
    this.state = 'pausing';
    for (const f of this.inFlight.values()) f.abort.abort();
    this.maybeSettle();
  }

  private maybeSettle(): void {
    if (this.state !== 'pausing') return;
    if (this.inFlight.size > 0) return;
    for (const w of this.workers) if (w.active > 0) return;
    void this.stop(this.fatal ? 'failed' : 'paused');
  }

  private async complete(): Promise<void> {
    if (this.state !== 'running') return;
    // Not 'pausing': nothing is in flight, and a pause must not settle the run under the finaliser.
    this.state = 'finishing';
    try {
      await finalizeMirror(this.archive);
    } catch (e) {
      this.fatal = e as Error;
      await this.stop('failed');
      return;
    }
    await this.stop('finished');
  }

  private async stop(final: CrawlState): Promise<void> {
    if (this.settle === null) return;
    const settle = this.settle;
    this.settle = null;
    for (const t of [this.wakeTimer, this.deadlineTimer]) if (t) clearTimeout(t);
    if (this.progressTimer) clearInterval(this.progressTimer);
    const c = this.archive.catalogue;
    const runMs = Date.now() - this.runStartedMs;
    c.transaction(() => {
      c.setMeta('duration_ms', String(this.priorDurationMs + runMs));
      c.setMeta('state', final);
      if (final === 'finished') c.setMeta('finished_at', new Date().toISOString());
    });
    if (final !== 'finished') await writeEntryPage(this.archive);
    await this.fetcher.close();
    this.state = final;
    this.emitProgress();
    this.emit({
      type: 'state',
      state: final,
      ...(this.fatal ? { message: this.fatal.message } : this.stopReason ? { message: `${this.stopReason} reached` } : {}),
    });
    settle(final);
  }
}

