import { Worker } from 'node:worker_threads';
import type { CrawlCounts, CrawlState, ProgressEvent, UrlEvent } from '../../shared/crawl.js';
import type { Job } from '../../shared/job.js';
import { collectCrawlHeapSooner, CRAWL_WORKER_HEAP } from './crawlHeap.js';
import { QUERY_ANSWER_SCHEMAS, type ArchiveQuery, type QueryAnswers, type QueryOf } from './archiveQueries.js';
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

/** One run of a job's crawl in a worker thread, seen from the host. */
export class CrawlRunner {
  readonly done: Promise<RunOutcome>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextRequestId = 1;
  private outcome: RunOutcome | null = null;

  constructor(data: CrawlWorkerData, events: RunnerEvents) {
    collectCrawlHeapSooner();
    this.worker = new Worker(new URL('./crawlWorker.js', import.meta.url), { workerData: data, resourceLimits: CRAWL_WORKER_HEAP });
    this.done = new Promise((resolve) => {
      this.worker.on('message', (raw: unknown) => {
        const parsed = FromWorkerSchema.safeParse(raw);
        if (!parsed.success) {
          // A worker that breaks the protocol can't be trusted with the archive any longer.
          this.outcome ??= { state: 'failed', error: `crawl worker sent a malformed message: ${parsed.error.message}`, counts: null, durationMs: null, unopened: false };
          void this.worker.terminate();
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
      this.worker.on('error', (e) => {
        this.outcome ??= { state: 'failed', error: e.message, counts: null, durationMs: null, unopened: false };
      });
      this.worker.on('exit', () => {
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
    this.worker.postMessage(m);
  }
}
