import type { UrlEvent } from '../../shared/crawl.js';
import { Crawl, DEFAULT_PROGRESS_INTERVAL_MS } from '../engine/crawl/crawl.js';
import { admitSeedList } from '../engine/crawl/seedList.js';
import { SharedHostGates } from '../engine/politeness/sharedHostGates.js';
import { Archive, ArchiveUsageError } from '../engine/store/archive.js';
import { ArchiveFormatError, ArchiveInUseError } from '../engine/store/catalogue.js';
import { readStats } from '../engine/store/stats.js';
import { answerQuery } from './archiveQueries.js';
import { ToWorkerSchema, type CrawlWorkerData, type FromWorker } from './workerProtocol.js';

/** The session's end of its link to the host: a worker thread's parentPort, or a direct link on the host's thread. */
export interface SessionPort {
  postMessage(m: unknown): void;
  on(event: 'message', listener: (m: unknown) => void): unknown;
  close(): void;
}

/**
 * One archive's crawl, seen through messages: in a worker thread for the app (crawlWorker.ts), so
 * SQLite never stalls the host's event loop and the crawl's heap has limits of its own, or on the
 * command line's own thread, which has nothing else to do. The session owns the archive (it holds
 * its writer lock), so it also answers the host's queries about it while the crawl runs, from the
 * connection that has the latest commits. The port is closed when the run has ended.
 */
export function serveCrawl(port: SessionPort, data: CrawlWorkerData): void {
  const post = (m: FromWorker) => port.postMessage(m);
  const archive = openArchive(port, data, post);
  if (archive !== null) crawlArchive(archive, port, data, post);
}

function openArchive(port: SessionPort, data: CrawlWorkerData, post: (m: FromWorker) => void): Archive | null {
  try {
    return Archive.open(data.archiveDir);
  } catch (e) {
    if (!(e instanceof ArchiveUsageError || e instanceof ArchiveInUseError || e instanceof ArchiveFormatError)) throw e;
    // Told apart from a failed crawl, so the command line can say the folder is wrong (exit status 2).
    post({ type: 'unopened', error: e.message });
    port.close();
    return null;
  }
}

/** Crawls the opened archive and answers queries about it until the crawl stops. */
function crawlArchive(archive: Archive, port: SessionPort, data: CrawlWorkerData, post: (m: FromWorker) => void): void {
  const gates = new SharedHostGates(data.gates);
  let pendingUrls: UrlEvent[] = [];
  /**
   * A pause that arrived while the seed list was admitted or the crawl was opening; Crawl.pause only
   * acts on a running crawl.
   */
  let pauseRequested = false;

  /** Created once a seed list, if any, is admitted: it counts the queue when it starts. */
  let crawl: Crawl | null = null;

  const newCrawl = (): Crawl =>
    new Crawl(archive, {
      gates,
      progressIntervalMs: data.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
      onEvent: (e) => {
        if (e.type === 'url') pendingUrls.push(e);
        else if (e.type === 'progress') {
          post({ type: 'progress', progress: e, urls: pendingUrls });
          pendingUrls = [];
        } else {
          post({ type: 'state', state: e.state, ...(e.message !== undefined && { message: e.message }), ...(e.politeness !== undefined && { politeness: e.politeness }) });
          // Deferred: run() is still setting up when it announces 'running'.
          if (e.state === 'running' && pauseRequested) setImmediate(() => crawl?.pause());
        }
      },
    });

  port.on('message', (raw: unknown) => {
    const m = ToWorkerSchema.safeParse(raw);
    if (!m.success) return;
    if (m.data.type === 'pause') {
      pauseRequested = true;
      crawl?.pause();
      return;
    }
    const { requestId, query } = m.data;
    try {
      post({ type: 'reply', requestId, value: answerQuery(archive, query), error: null });
    } catch (e) {
      post({ type: 'reply', requestId, value: null, error: e instanceof Error ? e.message : String(e) });
    }
  });

  async function main(): Promise<void> {
    let state: Awaited<ReturnType<Crawl['run']>> = 'failed';
    let error: string | null = null;
    try {
      // Admitted here rather than by the caller, so its garbage is collected in the crawl's heap.
      if (data.seedsFile !== undefined) await admitSeedList(data.seedsFile, archive.job, archive.catalogue);
      crawl = newCrawl();
      state = await crawl.run();
      error = crawl.failure?.message ?? crawl.problem;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const stats = readStats(archive.catalogue);
    if (pendingUrls.length) post({ type: 'progress', progress: { type: 'progress', counts: stats.counts, urlsPerSec: 0, kbPerSec: 0, elapsedMs: stats.durationMs, current: [] }, urls: pendingUrls });
    archive.close();
    gates.close();
    post({ type: 'done', state, error, counts: stats.counts, durationMs: stats.durationMs });
    port.close();
  }

  void main();
}
