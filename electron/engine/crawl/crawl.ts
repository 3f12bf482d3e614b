import type { CrawlEvent, CrawlState, ProgressEvent } from '../../../shared/crawl.js';
import { userAgentFor, type Job } from '../../../shared/job.js';
import { AddressPolicy } from '../fetch/addressPolicy.js';
import { Fetcher } from '../fetch/fetcher.js';
import { HostGateRegistry, type HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL } from '../politeness/robots.js';
import type { Archive } from '../store/archive.js';
import type { ArchivingParts } from './archivingParts.js';
import { CrawlLimits } from './crawlLimits.js';
import { Frontier } from './frontier.js';
import { Lanes } from './lanes.js';
import { ProgressMeter } from './progress.js';
import type { RenderedCapture } from './renderedCapture.js';
import { RequestHeaders } from './requestHeaders.js';
import { FocusPolicy } from '../focus/focusPolicy.js';
import { FocusStore } from '../store/focusStore.js';
import { bestFirst, breadthFirst } from './frontierOrder.js';
import type { SiteDispatch } from './siteDispatch.js';
import { describePoliteness, takeLiveControl } from './liveControl.js';
import { failedSeedsProblem } from './seedOutcomes.js';
import { finishArchive } from './finishingPass.js';
import { ProgressTicks } from './progressTicks.js';
import { closeRun, saveRunEnd } from './runEnd.js';
import { openRun } from './runStart.js';
import { WakeTimer } from './wakeTimer.js';

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
  private readonly wake = new WakeTimer(() => this.pump());
  private readonly ticks: ProgressTicks;
  private readonly retryBackoffMs: number;
  private readonly outageLimitMs: number | undefined;
  private unsubscribeGates: (() => void) | null = null;
  private readonly limits: CrawlLimits;
  private settle: ((s: CrawlState) => void) | null = null;
  private fatal: Error | null = null;
  private unreached: string | null = null;
  /** Set once the WARC writer and document workers are open. */
  private parts: ArchivingParts | null = null;
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
    this.retryBackoffMs = opts.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    this.outageLimitMs = opts.outageLimitMs;
    const c = archive.catalogue;
    // A site that could not be reached is asked again on resume (the failed job's "resume to try again").
    c.transaction(() => c.retryUnreachable());
    this.meter = new ProgressMeter(c.countByState(), c.countBySkipReason(), c.totalBytes());
    const priorDurationMs = Number(c.getMeta('duration_ms') ?? '0');
    this.ticks = new ProgressTicks({
      archive,
      intervalMs: opts.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
      priorDurationMs,
      report: () => this.emit(this.progress()),
      // Live control is taken at the checkpoint's pace, about once a second.
      afterCheckpoint: () => this.takeLiveControl(),
      fail: (e) => this.fail(e),
    });
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
      priorDurationMs,
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
    const opened = await openRun({
      archive: this.archive,
      frontier: this.frontier,
      meter: this.meter,
      emit: this.emit,
      focus: this.focus,
      fetcher: this.fetcher,
      requestHeaders: this.requestHeaders,
      gates: this.gates,
      lanes: this.lanes,
      limits: this.limits,
      inFlight: this.inFlight,
      retryBackoffMs: this.retryBackoffMs,
      ...(this.outageLimitMs !== undefined && { outageLimitMs: this.outageLimitMs }),
      say: (message) => this.emit({ type: 'state', state: this.crawlState, message }),
      running: () => this.state === 'running',
      pump: () => this.pump(),
      fail: (e) => this.fail(e),
    });
    ({ parts: this.parts, rendering: this.rendering, dispatch: this.dispatch } = opened);
    for (const site of c.sitesWithQueued()) this.lanes.siteHasWork(site);
    this.state = 'running';
    this.emit({ type: 'state', state: 'running' });
    const done = new Promise<CrawlState>((resolve) => (this.settle = resolve));
    this.ticks.start();
    this.unsubscribeGates = this.gates.onRelease(() => this.pump());
    this.limits.start();
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
    const snapshot = this.meter.snapshot(this.ticks.elapsedMs(), [...this.inFlight.values()], this.inFlight.size);
    if (this.focus !== null) snapshot.focus = this.focus.counts();
    return this.finishing === null ? snapshot : { ...snapshot, finishing: { ...this.finishing } };
  }

  /** Starts whatever the politeness rules allow now and sets a timer for the next opening. */
  private pump(): void {
    if (this.state === 'pausing') this.maybeSettle();
    if (this.state !== 'running') return;
    this.ticks.tickIfDue();
    const wakeInMs = this.lanes.dispatch((s) => this.dispatch!.tryStart(s));
    // Finished means nothing running and nothing queued, never the queue alone.
    if (this.idle() && this.lanes.allExhausted()) {
      void this.complete();
      return;
    }
    this.wake.after(wakeInMs);
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
    this.noteFatal(e);
    if (this.state !== 'running') return;
    this.state = 'pausing';
    for (const abort of this.inFlight.keys()) abort.abort();
    this.maybeSettle();
  }

  /** The first error the run met is the one it reports. */
  private noteFatal(e: unknown): void {
    this.fatal ??= e instanceof Error ? e : new Error(String(e));
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
      await finishArchive(this.archive, this.parts!, (done, total) => {
        this.finishing = { done, total };
        // The ticks report the pass while it runs; its start and end are reported as they happen.
        if (done === 0 || done === total) this.emit(this.progress());
      });
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
    this.wake.cancel();
    this.limits.stopTimer();
    this.ticks.stop();
    this.unsubscribeGates?.();
    try {
      await saveRunEnd(this.archive, this.parts, final, this.ticks.elapsedMs(), this.fatal?.message ?? this.unreached ?? '');
    } catch (e) {
      this.noteFatal(e);
      final = 'failed';
    } finally {
      const closed = await closeRun({ rendering: this.rendering, fetcher: this.fetcher, parts: this.parts }, (e) => this.noteFatal(e));
      if (!closed) final = 'failed';
      this.state = final;
      const last = this.meter.snapshot(this.ticks.elapsedMs(), [], 0);
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
