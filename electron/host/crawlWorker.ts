import { parentPort, workerData } from 'node:worker_threads';
import { serveCrawl } from './crawlSession.js';
import type { CrawlWorkerData } from './workerProtocol.js';

/** The crawl session's thread (see crawlSession.ts): the app's and `harvest serve`'s crawls run here. */
if (!parentPort) throw new Error('crawlWorker runs in a worker thread');
serveCrawl(parentPort, workerData as CrawlWorkerData);
