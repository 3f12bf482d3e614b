import type pg from 'pg';
import type { ClusterLimit } from '../../../shared/cluster.js';
import type { Job } from '../../../shared/job.js';

/**
 * The limit the harvest has reached, or null. Counted as the local crawl counts (crawlLimits.ts):
 * HTML pages archived and bytes received, summed over every worker's committed batches; duration
 * from the first worker's start. The byte and duration limits end the harvest; the page limit
 * still lets requisites be fetched, so saved pages look right, and gives way to either of those.
 */
export async function reachedLimit(c: pg.Pool | pg.PoolClient, limits: Job['limits']): Promise<ClusterLimit | null> {
  const r = await c.query<{ stopped_by: ClusterLimit | null; late: boolean; pages: string; bytes: string }>(
    `SELECT h.stopped_by, coalesce(h.started_at <= now() - make_interval(secs => $1), false) AS late,
       (SELECT coalesce(sum(pages), 0) FROM workers) AS pages, (SELECT coalesce(sum(bytes), 0) FROM workers) AS bytes
     FROM harvest h`,
    [limits.maxDurationMs === null ? null : limits.maxDurationMs / 1000],
  );
  const row = r.rows[0]!;
  if (row.stopped_by === 'limit:bytes' || row.stopped_by === 'limit:duration') return row.stopped_by;
  if (limits.maxBytes !== null && Number(row.bytes) >= limits.maxBytes) return 'limit:bytes';
  if (row.late) return 'limit:duration';
  if (row.stopped_by === 'limit:pages' || (limits.maxPages !== null && Number(row.pages) >= limits.maxPages)) return 'limit:pages';
  return null;
}
