import type { CrawlState, CrawlStats } from '../../../shared/crawl.js';
import { parseJob } from '../../../shared/job.js';
import type { Catalogue } from './catalogue.js';

/** The summary `harvest stats` prints, read straight from the catalogue. */
export function readStats(c: Catalogue): CrawlStats {
  const job = parseJob(JSON.parse(c.getMeta('job') ?? '{}'));
  const byState = c.countByState();
  const skippedByReason = c.countBySkipReason();
  return {
    name: job.name,
    seeds: job.seeds,
    state: (c.getMeta('state') ?? 'paused') as CrawlState,
    counts: {
      discovered: Object.values(byState).reduce((a, b) => a + b, 0),
      queued: byState.queued,
      inFlight: 0,
      archived: byState.archived,
      redirects: byState.redirect,
      httpErrors: byState['http-error'],
      failed: byState.failed,
      skipped: byState.skipped,
      skippedByReason,
      bytes: c.totalBytes(),
    },
    byState,
    startedAt: c.getMeta('started_at'),
    finishedAt: c.getMeta('finished_at'),
    durationMs: Number(c.getMeta('duration_ms') ?? '0'),
    robotsPolicy: c.getMeta('robots_policy') === 'ignored' ? 'ignored' : 'obeyed',
  };
}
