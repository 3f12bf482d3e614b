import type { CrawlEvent, CrawlState, ProgressEvent } from '../../../shared/crawl.js';
import { userAgentFor, type Job } from '../../../shared/job.js';
import { AddressPolicy } from '../fetch/addressPolicy.js';
import { Fetcher } from '../fetch/fetcher.js';
import { HostGateRegistry, type HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL } from '../politeness/robots.js';
import type { Archive } from '../store/archive.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { WarcWriter } from '../warc/writer.js';
import { DocumentPool } from './documentPool.js';
import { finalizeMirror, writeEntryPage } from './finalize.js';
import { CrawlLimits } from './crawlLimits.js';
import { Frontier } from './frontier.js';
import { Lanes } from './lanes.js';
import { ProgressMeter } from './progress.js';
import type { RenderedCapture } from './renderedCapture.js';
import { RequestHeaders } from './requestHeaders.js';
import { ResponseArchiver } from './responseArchiver.js';
import { FocusPolicy } from '../focus/focusPolicy.js';
import { FocusStore } from '../store/focusStore.js';
import { bestFirst, breadthFirst } from './frontierOrder.js';
import { closeQuietly, openArchiving } from './archivingParts.js';
import { seedsOfCapture } from './seedDiscovery.js';
import { UrlProcessor } from './urlProcessor.js';
import { ByteBudget } from './byteBudget.js';
import { HostHolds } from './hostHolds.js';
import { SiteDispatch } from './siteDispatch.js';
import { gateLimitsFor } from './politeDelay.js';
import { describePoliteness, takeLiveControl } from './liveControl.js';
import { indexMissing } from './textIndexing.js';
import { failedSeedsProblem } from './seedOutcomes.js';
import { STATE_MESSAGE } from '../store/stats.js';

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
  /** First retry's back-off, doubled for the next; default DEFAULT_RETRY_BACKOFF_MS (tests shrink it). */
  retryBackoffMs?: number;
  /** How long a host that stopped answering is waited for; default DEFAULT_OUTAGE_LIMIT_MS (hostHolds.ts). */
  outageLimitMs?: number;
}

/**
 * Under the 250 ms the UI promises between progress events, with room for a busy event loop: the
 * timer's turn can come late, so every finished request also emits one once this much has passed.
 * The crawl loop's longest synchronous stretches (a page's links admitted in one transaction) run
 * to 40-90 ms on the 5,000-page bench site; at 200 ms a tick falling due during one made gaps of up
 * to 277 ms.
 */
export const DEFAULT_PROGRESS_INTERVAL_MS = 150;

/** Back-off before a transient failure's first retry (then twice that, with jitter). */
export const DEFAULT_RETRY_BACKOFF_MS = 2_000;

/** How often the crawl time is checkpointed, so a killed crawl still counts most of its time. */
const DURATION_CHECKPOINT_MS = 5_000;
/**
 * How often the catalogue's log is copied into the database, right after a progress event: about a
 * second of crawling makes a checkpoint of some 100 ms, well inside the gap to the next event.
 */
const WAL_CHECKPOINT_MS = 1_000;

/**
 * Memory the crawl gives bodies over 1 MiB at once (see BodyShare). A body of unknown or larger
 * size takes all of it, so a compression bomb or a 100 MB file is held alone.
 */
const LARGE_BODIES_BYTES = 16 * 1024 * 1024;

/**
 * One run of a crawl over an archive: breadth-first per site, politeness per host, every outcome
 * committed to the catalogue as it happens, so a pause, a quit or a kill loses at most the requests
 * in flight. A Crawl runs once; resume with a new Crawl on the same archive.
 */
export class Crawl {
  private readonly job: Job;
  private readonly gates: HostGates;
  private readonly fetcher: Fetcher;
  private readonly requestHeaders: RequestHeaders;
  private readonly meter: ProgressMeter;
  private readonly frontier: Frontier;
  private readonly lanes: Lanes;
  private readonly inFlight = new Map<AbortController, string>();
  private readonly emit: (e: CrawlEvent) => void;
  private state: CrawlState | 'new' | 'finishing' = 'new';
  /** The final rewrite pass's progress, once it has started. */
  private finishing: { done: number; total: number } | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAtMs = Infinity;
  private progressTimer: NodeJS.Timeout | null = null;
  private readonly progressIntervalMs: number;
  private readonly retryBackoffMs: number;
  private readonly outageLimitMs: number | undefined;
  private lastProgressMs = 0;
  /** Responses being parsed, recorded and saved after their request finished, over all sites. */
  private unsubscribeGates: (() => void) | null = null;
  private runStartedMs = 0;
  private lastDurationCheckpointMs = 0;
  private lastWalCheckpointMs = 0;
  private readonly priorDurationMs: number;
  private readonly limits: CrawlLimits;
  private settle: ((s: CrawlState) => void) | null = null;
  private fatal: Error | null = null;
  private unreached: string | null = null;
  private warc: WarcWriter | null = null;
  private documents: DocumentPool | null = null;
  private textIndex: TextIndex | null = null;
  /** Set once the WARC writer and document workers are open. */
  private archiver: ResponseArchiver | null = null;
  private dispatch: SiteDispatch | null = null;
  /** A focused harvest's decisions; null without a template. */
  private readonly focus: FocusPolicy | null;
  /** Set when the job renders pages (then the browser starts with the first page). */
  private rendering: RenderedCapture | null = null;

  constructor(
    private readonly archive: Archive,
    opts: CrawlOptions = {},
  ) {
    this.job = archive.job;
    this.gates = opts.gates ?? new HostGateRegistry();
    this.emit = opts.onEvent ?? (() => {});
    this.progressIntervalMs = opts.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    this.retryBackoffMs = opts.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    this.outageLimitMs = opts.outageLimitMs;
    const c = archive.catalogue;
    // A site that could not be reached is asked again on resume (the failed job's "resume to try again").
    c.transaction(() => c.retryUnreachable());
    this.meter = new ProgressMeter(c.countByState(), c.countBySkipReason(), c.totalBytes());
    this.priorDurationMs = Number(c.getMeta('duration_ms') ?? '0');
    this.requestHeaders = new RequestHeaders(this.job);
    this.fetcher = new Fetcher({
      ...this.job.fetch,
      // Retries go to the back of the site's queue (process()), never holding a connection.
      maxRetries: 0,
      extraHeaders: this.requestHeaders.common,
      userAgent: userAgentFor(this.job),
      connectionsPerOrigin: this.job.politeness.perHostConnections,
      addressPolicy: new AddressPolicy(this.job.seeds, this.job.allowNetworks),
    });
    this.focus = this.job.template === null ? null : new FocusPolicy(this.job.template, new FocusStore(c));
    this.frontier = new Frontier(this.job, c, this.meter, (site, score) => this.lanes.siteHasWork(site, score));
    const capacity = Math.max(opts.laneCapacity ?? 8, this.job.politeness.perHostConnections);
    const order = this.focus === null ? breadthFirst(c) : bestFirst(c);
    this.lanes = new Lanes(order, opts.lanes ?? 4, capacity, this.job.politeness.respectRobots ? null : ALLOW_ALL);
    this.limits = new CrawlLimits({
      job: this.job,
      catalogue: c,
      frontier: this.frontier,
      meter: this.meter,
      lanes: this.lanes,
      priorDurationMs: this.priorDurationMs,
      reached: (reason) => this.emit({ type: 'state', state: this.crawlState, message: `${reason} reached` }),
      abortInFlight: () => {
        for (const abort of this.inFlight.keys()) abort.abort();
      },
    });
  }

  get crawlState(): CrawlState {
    if (this.state === 'new') return 'paused';
    return this.state === 'finishing' ? 'running' : this.state;
  }

  /** Why the run stopped with state 'failed' because of an error. */
  get failure(): Error | null {
    return this.fatal;
  }

  /**
   * What went wrong without stopping the crawl: the seeds that could not be reached, and why. A
   * crawl none of whose seeds could be reached ends 'failed' with it; one with some ends 'finished'
   * with it ("finished with errors").
   */
  get problem(): string | null {
    return this.unreached;
  }

  /** Runs until the crawl finishes or is paused; resolves with the state it stopped in. */
  async run(): Promise<CrawlState> {
    if (this.state !== 'new') throw new Error('a Crawl runs once; start a new one to resume');
    this.state = 'paused';
    const c = this.archive.catalogue;
    const parts = await openArchiving(this.archive, { frontier: this.frontier, meter: this.meter, emit: this.emit, focus: this.focus });
    ({ documents: this.documents, textIndex: this.textIndex, warc: this.warc, archiver: this.archiver } = parts);
    try {
      if (this.job.render.enabled) this.rendering = await this.openRendering(parts.archiver);
      c.transaction(() => {
        if (c.getMeta('started_at') === null) c.setMeta('started_at', new Date().toISOString());
        c.ensureCapture(new Date(c.getMeta('started_at')!));
        c.setMeta('state', 'running');
      });
      const seeds = this.job.seeds.map((seed) => canonicalize(seed)).filter((url) => url !== null);
      const ranked = this.focus === null ? seeds : [...seeds, ...(await this.discoveredSeeds(seeds))];
      c.transaction(() => {
        for (const url of this.focus === null ? seeds : this.focus.seedsToAdmit(c, ranked)) {
          this.frontier.admitSeed(url, this.focus?.seedScore);
        }
      });
    } catch (e) {
      await this.rendering?.close();
      await closeQuietly(parts);
      throw e;
    }
    const holds = new HostHolds({
      ...(this.outageLimitMs !== undefined && { outageLimitMs: this.outageLimitMs }),
      say: (message) => this.emit({ type: 'state', state: this.crawlState, message }),
    });
    const processor = new UrlProcessor({
      job: this.job,
      catalogue: c,
      fetcher: this.fetcher,
      requestHeaders: this.requestHeaders,
      archiver: parts.archiver,
      rendering: this.rendering,
      limits: this.limits,
      inFlight: this.inFlight,
      retryBackoffMs: this.retryBackoffMs,
      holds,
      running: () => this.state === 'running',
      pump: () => this.pump(),
      largeBodies: new ByteBudget(LARGE_BODIES_BYTES),
    });
    this.dispatch = new SiteDispatch({
      job: this.job,
      catalogue: c,
      gates: this.gates,
      holds,
      lanes: this.lanes,
      fetcher: this.fetcher,
      warc: this.warc,
      archiver: parts.archiver,
      processor,
      inFlight: this.inFlight,
      pump: () => this.pump(),
      fail: (e) => this.fail(e),
    });
    for (const site of c.sitesWithQueued()) this.lanes.siteHasWork(site);
    this.state = 'running';
    this.runStartedMs = Date.now();
    this.lastDurationCheckpointMs = this.runStartedMs;
    this.lastWalCheckpointMs = this.runStartedMs;
    this.emit({ type: 'state', state: 'running' });
    const done = new Promise<CrawlState>((resolve) => (this.settle = resolve));
    this.progressTimer = setInterval(() => this.tick(), this.progressIntervalMs);
    this.unsubscribeGates = this.gates.onRelease(() => this.pump());
    this.limits.start();
    this.pump();
    return done;
  }

  /** A template's discovered seeds (see seedDiscovery.ts), through the crawl's fetcher, gates and robots.txt. */
  private discoveredSeeds(jobSeeds: string[]): Promise<string[]> {
    return seedsOfCapture(this.job.template!, jobSeeds, {
      fetcher: this.fetcher,
      gates: this.gates,
      catalogue: this.archive.catalogue,
      warc: this.warc,
      respectRobots: this.job.politeness.respectRobots,
      limitsFor: (policy) => gateLimitsFor(this.job, policy),
      inScope: (url) => this.frontier.scope.inScope(url),
      inFlight: this.inFlight,
    });
  }

  /** Loaded only for a job that renders: a static crawl never loads the browser driver. */
  private async openRendering(archiver: ResponseArchiver): Promise<RenderedCapture> {
    const { RenderedCapture } = await import('./renderedCapture.js');
    return RenderedCapture.open(this.job.render, {
      job: this.job,
      archive: this.archive,
      frontier: this.frontier,
      archiver,
      fetcher: this.fetcher,
      requestHeaders: this.requestHeaders,
      gates: this.gates,
      lanes: this.lanes,
      limits: this.limits,
      warc: this.warc,
      inFlight: this.inFlight,
      wake: () => this.pump(),
      fail: (e) => this.fail(e),
    });
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
    // Run from a timer: a write that fails here (a full disk) must stop the crawl, not the process.
    try {
      // Before anything is written this tick: a folder moved since the last one stops the crawl.
      this.archive.checkFolder();
      if (now - this.lastDurationCheckpointMs >= DURATION_CHECKPOINT_MS) {
        this.lastDurationCheckpointMs = now;
        this.archive.catalogue.setMeta('duration_ms', String(this.elapsedMs()));
      }
      this.emit(this.progress());
      if (now - this.lastWalCheckpointMs >= WAL_CHECKPOINT_MS) {
        this.archive.catalogue.checkpoint();
        this.lastWalCheckpointMs = Date.now();
        this.takeLiveControl();
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /** A politeness change dropped into the archive folder, applied (see liveControl.ts) and reported. */
  private takeLiveControl(): void {
    const taken = takeLiveControl({ archive: this.archive, fetcher: this.fetcher, lanes: this.lanes, gates: this.gates });
    if (taken === null) return;
    if ('error' in taken) {
      this.emit({ type: 'state', state: this.crawlState, message: `politeness change refused: ${taken.error}` });
      return;
    }
    this.emit({ type: 'state', state: this.crawlState, message: `now ${describePoliteness(taken)}`, politeness: taken });
    this.pump();
  }

  private progress(): ProgressEvent {
    const snapshot = this.meter.snapshot(this.elapsedMs(), [...this.inFlight.values()], this.inFlight.size);
    if (this.focus !== null) snapshot.focus = this.focus.counts();
    return this.finishing === null ? snapshot : { ...snapshot, finishing: { ...this.finishing } };
  }

  /** Starts whatever the politeness rules allow now and sets a timer for the next opening. */
  private pump(): void {
    if (this.state === 'pausing') this.maybeSettle();
    if (this.state !== 'running') return;
    this.tickIfDue();
    const wakeInMs = this.lanes.dispatch((s) => this.dispatch!.tryStart(s));
    // Finished means nothing running and nothing queued, never the queue alone.
    if (this.idle() && this.lanes.allExhausted()) {
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

  private fail(e: unknown): void {
    // A write that met the moved folder (in a document worker, say): the archive's own check says where it went.
    if ((e as { code?: unknown }).code === 'EARCHIVEMOVED') {
      try {
        this.archive.checkFolder();
      } catch (moved) {
        e = moved;
      }
    }
    this.fatal ??= e instanceof Error ? e : new Error(String(e));
    if (this.state !== 'running') return;
    this.state = 'pausing';
    for (const abort of this.inFlight.keys()) abort.abort();
    this.maybeSettle();
  }

  /** Nothing on the wire and nothing being archived. */
  private idle(): boolean {
    return (this.dispatch?.running ?? 0) === 0 && this.lanes.quiet();
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
      await this.archiver!.textRead();
      // Pages saved in an earlier run that a kill kept out of the index (their text was still queued).
      await indexMissing(this.archive, this.textIndex!, this.documents!);
      // The index is complete: compacted in a document worker while the ticks go on (0.5 s or more
      // of one thread on the 5,000-page bench site, long enough to stall the progress events), and
      // beside the rewrite pass, which never reads it.
      this.textIndex!.close();
      const finished = await Promise.allSettled([
        finalizeMirror(this.archive, this.documents!, (done, total) => {
          this.finishing = { done, total };
          // The ticks report the pass while it runs; its start and end are reported as they happen.
          if (done === 0 || done === total) this.emit(this.progress());
        }),
        this.documents!.compactTextIndex(TextIndex.fileIn(this.archive.dir)),
      ]);
      for (const r of finished) if (r.status === 'rejected') throw r.reason;
    } catch (e) {
      this.fatal = e instanceof Error ? e : new Error(String(e));
    }
    const seeds = failedSeedsProblem(this.archive.catalogue, this.job.seeds);
    this.unreached = seeds.problem;
    await this.stop(this.fatal || seeds.none ? 'failed' : 'finished');
  }

  private async stop(wanted: CrawlState): Promise<void> {
    if (this.settle === null) return;
    const settle = this.settle;
    this.settle = null;
    let final = wanted;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.limits.stopTimer();
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.unsubscribeGates?.();
    try {
      const c = this.archive.catalogue;
      c.transaction(() => {
        this.archiver?.saveCaptures();
        c.setMeta('duration_ms', String(this.elapsedMs()));
        c.setMeta('state', final);
        c.setMeta(STATE_MESSAGE, this.fatal?.message ?? this.unreached ?? '');
        const finishedAt = final === 'finished' ? new Date() : null;
        if (finishedAt !== null) c.setMeta('finished_at', finishedAt.toISOString());
        c.endCaptureRun(final, this.elapsedMs(), finishedAt);
      });
      if (final !== 'finished') await writeEntryPage(this.archive);
    } catch (e) {
      this.fatal ??= e instanceof Error ? e : new Error(String(e));
      final = 'failed';
    } finally {
      await this.rendering?.close();
      await this.fetcher.close().catch(() => {});
      for (const finish of [() => this.archiver?.textRead(), () => this.textIndex?.close()]) {
        try {
          await finish();
        } catch (e) {
          this.fatal ??= e instanceof Error ? e : new Error(String(e));
          final = 'failed';
        }
      }
      await this.documents?.close();
      await this.warc?.close().catch((e: unknown) => {
        this.fatal ??= e instanceof Error ? e : new Error(String(e));
        final = 'failed';
      });
      this.state = final;
      const last = this.meter.snapshot(this.elapsedMs(), [], 0);
      // The harvest rate stays on show when the crawl ends.
      if (this.focus !== null) last.focus = this.focus.counts();
      this.emit(last);
      this.emit({
        type: 'state',
        state: final,
        ...(this.fatal
          ? { message: this.fatal.message }
          : this.unreached !== null
            ? { message: this.unreached }
            : this.limits.stopReason
              ? { message: `${this.limits.stopReason} reached` }
              : {}),
      });
      settle(final);
    }
  }
}
