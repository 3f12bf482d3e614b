import { Worker } from 'node:worker_threads';
import type { CrawlCounts, CrawlState, ProgressEvent, UrlEvent } from '../../shared/crawl.js';
import type { Job } from '../../shared/job.js';
import { collectCrawlHeapSooner, CRAWL_WORKER_HEAP } from './crawlHeap.js';
import { QUERY_ANSWER_SCHEMAS, type ArchiveQuery, type QueryAnswers, type QueryOf } from './archiveQueries.js';
import type { SessionPort } from './crawlSession.js';
import { FromWorkerSchema, type CrawlWorkerData, type ToWorker } from './workerProtocol.js';

export interface RunOutcome {
  state: CrawlState;
  /** Why it failed, or for a finished crawl what went wrong all the same (seeds that could not be reached). */
  error: string | null;
  /** Final counters, when the worker got as far as reading them. */
  counts: CrawlCounts | null;
  durationMs: number | null;
  /** The worker could not open the archive, so nothing ran; error says why. */
  unopened: boolean;
}

export interface RunnerEvents {
  onProgress(progress: ProgressEvent, urls: UrlEvent[]): void;
  onState(state: CrawlState, message?: string, politeness?: Job['politeness']): void;
}

/** The worker ended (or is ending) before it answered: the caller asks the archive directly instead. */
export class WorkerGoneError extends Error {
  constructor() {
    super('the crawl worker has stopped');
    this.name = 'WorkerGoneError';
  }
}

interface Pending {
  kind: ArchiveQuery['kind'];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Where the crawl session runs: its own thread (the app, `harvest serve`), or the caller's (the command line). */
export type SessionPlace = 'thread' | 'inline';

/** The host's end of a crawl session (crawlSession.ts). */
interface SessionLink {
  send(m: ToWorker): void;
  onMessage(fn: (raw: unknown) => void): void;
  /** Called once the session has ended (its thread exited, or its port closed), with its failure if it failed. */
  onEnd(fn: (error: Error | null) => void): void;
  stop(): void;
}

function threadSession(data: CrawlWorkerData): SessionLink {
  const worker = new Worker(new URL('./crawlWorker.js', import.meta.url), { workerData: data, resourceLimits: CRAWL_WORKER_HEAP });
  let failure: Error | null = null;
  worker.on('error', (e) => (failure ??= e));
  return {
    send: (m) => worker.postMessage(m),
    onMessage: (fn) => worker.on('message', fn),
    onEnd: (fn) => worker.on('exit', () => fn(failure)),
    stop: () => void worker.terminate(),
  };
}

/**
 * The session on this thread: the command line's thread only draws progress, so a thread of its
 * own would cost the crawl a second copy of the engine's modules and a heap (some 40 MB) and their
 * loading time, for nothing. Messages are handed over at once rather than through a message channel,
 * which would deliver them only once the crawl's current step ends: a progress event would then be
 * seen after the catalogue checkpoint that follows it (bench scenario 5: p99 gap 259 ms instead of 222).
 */
function inlineSession(data: CrawlWorkerData): SessionLink {
  const toHost: ((m: unknown) => void)[] = [];
  const toSession: ((m: unknown) => void)[] = [];
  // What the host sends before the session listens (a pause while it loads) waits for it, as a port's messages do.
  const early: unknown[] = [];
  let ended: ((error: Error | null) => void) | null = null;
  let closed = false;
  const close = (error: Error | null) => {
    if (closed) return;
    closed = true;
    ended?.(error);
  };
  const port: SessionPort = {
    postMessage: (m) => {
      if (!closed) for (const fn of toHost) fn(m);
    },
    on: (_event, fn) => {
      toSession.push(fn);
      for (const m of early.splice(0)) fn(m);
    },
    close: () => close(null),
  };
  import('./crawlSession.js')
    .then(({ serveCrawl }) => serveCrawl(port, data))
    .catch((e: unknown) => close(e instanceof Error ? e : new Error(String(e))));
  return {
    send: (m) => {
      if (closed) return;
      if (toSession.length === 0) early.push(m);
      for (const fn of toSession) fn(m);
    },
    onMessage: (fn) => toHost.push(fn),
    onEnd: (fn) => (ended = fn),
    stop: () => close(null),
  };
}

/** One run of a job's crawl, seen from the host. */
export class CrawlRunner {
  readonly done: Promise<RunOutcome>;
  private readonly session: SessionLink;
  private readonly pending = new Map<number, Pending>();
  private nextRequestId = 1;
  private outcome: RunOutcome | null = null;

  constructor(data: CrawlWorkerData, events: RunnerEvents, place: SessionPlace = 'thread') {
    collectCrawlHeapSooner();
    this.session = place === 'thread' ? threadSession(data) : inlineSession(data);
    this.done = new Promise((resolve) => {
      this.session.onMessage((raw: unknown) => {
        const parsed = FromWorkerSchema.safeParse(raw);
        if (!parsed.success) {
          // A worker that breaks the protocol can't be trusted with the archive any longer.
          this.outcome ??= { state: 'failed', error: `crawl worker sent a malformed message: ${parsed.error.message}`, counts: null, durationMs: null, unopened: false };
          this.session.stop();
          return;
        }
        const m = parsed.data;
        switch (m.type) {
          case 'progress':
            events.onProgress(m.progress, m.urls);
            break;
          case 'state':
            events.onState(m.state, m.message, m.politeness);
            break;
          case 'reply':
            this.settleReply(m.requestId, m.value, m.error);
            break;
          case 'unopened':
            this.outcome = { state: 'failed', error: m.error, counts: null, durationMs: null, unopened: true };
            break;
          case 'done':
            this.outcome = { state: m.state, error: m.error, counts: m.counts, durationMs: m.durationMs, unopened: false };
            break;
        }
      });
      this.session.onEnd((e) => {
        if (e !== null) this.outcome ??= { state: 'failed', error: e.message, counts: null, durationMs: null, unopened: false };
        for (const p of this.pending.values()) p.reject(new WorkerGoneError());
        this.pending.clear();
        resolve(this.outcome ?? { state: 'failed', error: 'the crawl worker stopped unexpectedly', counts: null, durationMs: null, unopened: false });
      });
    });
  }

  pause(): void {
    this.send({ type: 'pause' });
  }

  query<K extends ArchiveQuery['kind']>(q: QueryOf<K>): Promise<QueryAnswers[K]> {
    if (this.outcome) return Promise.reject(new WorkerGoneError());
    const requestId = this.nextRequestId++;
    return new Promise<QueryAnswers[K]>((resolve, reject) => {
      this.pending.set(requestId, { kind: q.kind, resolve: resolve as (v: unknown) => void, reject });
      this.send({ type: 'query', requestId, query: q });
    });
  }

  private settleReply(requestId: number, value: unknown, error: string | null): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    if (error !== null) return p.reject(new Error(error));
    const checked = QUERY_ANSWER_SCHEMAS[p.kind].safeParse(value);
    if (checked.success) p.resolve(checked.data);
    else p.reject(new Error(`crawl worker answered ${p.kind} with malformed data`));
  }

  private send(m: ToWorker): void {
    this.session.send(m);
  }
}
