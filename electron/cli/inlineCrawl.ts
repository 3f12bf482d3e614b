import path from 'node:path';
import type { CrawlEvent } from '../../shared/crawl.js';
import { createHostGatesBuffer } from '../engine/politeness/sharedHostGates.js';
import { ArchiveUsageError } from '../engine/store/archive.js';
import { CrawlRunner, type RunOutcome } from '../host/crawlRunner.js';
import type { EventLog } from './eventLog.js';
import { onInterrupt } from './interrupts.js';
import { ProgressLine } from './progressLine.js';

export interface InlineCrawlOptions {
  quiet: boolean;
  events?: EventLog | null;
  seedsFile?: string;
}

/**
 * Runs the archive's crawl session on this thread (the app runs it in a worker thread), drawing
 * progress and writing the event log from its messages. Ctrl-C pauses at the next checkpoint; a
 * second one quits at once. The session opens the archive: a missing, locked or foreign folder
 * comes back as `unopened` and is thrown as a usage error.
 */
export async function runInlineCrawl(dir: string, options: InlineCrawlOptions): Promise<RunOutcome> {
  const archiveDir = path.resolve(dir);
  const line = new ProgressLine(process.stderr, options.quiet);
  const show = (e: CrawlEvent) => {
    line.update(e);
    options.events?.write(e);
  };
  const runner = new CrawlRunner(
    { archiveDir, gates: createHostGatesBuffer(), ...(options.seedsFile !== undefined && { seedsFile: options.seedsFile }) },
    {
      onProgress: (progress, urls) => {
        for (const u of urls) show(u);
        show(progress);
      },
      onState: (state, message) => show({ type: 'state', state, ...(message !== undefined && { message }) }),
    },
    'inline',
  );
  let interrupts = 0;
  const stopListening = onInterrupt(() => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    line.note('pausing: finishing the checkpoint (Ctrl-C again to quit at once)');
    runner.pause();
  });
  try {
    const outcome = await runner.done;
    line.done();
    if (outcome.unopened) throw new ArchiveUsageError(outcome.error ?? `cannot open ${archiveDir}`);
    return outcome;
  } finally {
    stopListening();
  }
}
