import { countsFromStates, type CrawlState, type CrawlStats } from '../../../shared/crawl.js';
import { parseJob } from '../../../shared/job.js';
import type { Catalogue } from './catalogue.js';
import { FocusStore } from './focusStore.js';

/** meta key: what went wrong in the last run ('' when nothing did). */
export const STATE_MESSAGE = 'state_message';

/** The summary `harvest stats` prints, read straight from the catalogue. */
export function readStats(c: Catalogue): CrawlStats {
  const job = parseJob(JSON.parse(c.getMeta('job') ?? '{}'));
  const byState = c.countByState();
  const focus = job.template === null ? null : new FocusStore(c).counts();
  return {
    ...focus,
    name: job.name,
    seeds: job.seeds,
    state: (c.getMeta('state') ?? 'paused') as CrawlState,
    counts: countsFromStates(byState, c.countBySkipReason(), c.totalBytes()),
    byState,
    startedAt: c.getMeta('started_at'),
    finishedAt: c.getMeta('finished_at'),
    durationMs: Number(c.getMeta('duration_ms') ?? '0'),
    robotsPolicy: c.getMeta('robots_policy') === 'ignored' ? 'ignored' : 'obeyed',
    message: c.getMeta(STATE_MESSAGE) || null,
  };
}
