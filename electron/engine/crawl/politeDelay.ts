import { ADAPTIVE_DELAY_FLOOR_MS, type Job } from '../../../shared/job.js';
import type { RobotsPolicy } from '../politeness/robots.js';
import type { SiteWork } from './lanes.js';

/** The longest gap an adaptive delay leaves (after a timeout it would otherwise be minutes). */
const MAX_ADAPTIVE_DELAY_MS = 60_000;

/**
 * What the host gates enforce: the job's connections and its fixed delay, or the adaptive
 * delay's floor (adaptiveWait adds the rest per site); Crawl-delay raises either.
 */
export function gateLimitsFor(job: Job, policy: RobotsPolicy): { maxConnections: number; delayMs: number } {
  const delayMs = job.politeness.delayMs ?? ADAPTIVE_DELAY_FLOOR_MS;
  return { maxConnections: job.politeness.perHostConnections, delayMs: Math.max(delayMs, policy.crawlDelayMs) };
}

/**
 * With an adaptive delay, ms until the site's next request may start: twice its last response
 * time after the last start (at most MAX_ADAPTIVE_DELAY_MS), so a server that slows down is asked
 * less often. Kept per site rather than in the shared gates, which keep the strictest delay ever
 * asked while a host is busy and would never let it fall again.
 */
export function adaptiveWait(job: Job, s: SiteWork, nowMs: number): number {
  if (job.politeness.delayMs !== null) return 0;
  return s.lastStartMs + Math.min(2 * s.lastResponseMs, MAX_ADAPTIVE_DELAY_MS) - nowMs;
}
