import { z } from 'zod';
import type { FocusCounts, SkipReason } from './crawl.js';
import { LiveControlSchema, type Job } from './job.js';

/**
 * A cluster harvest (workers sharing a frontier in PostgreSQL) as `harvest cluster status` reports
 * it, and as the app shows it when attached: the same figures cross the process boundary.
 */

/** The job limits a cluster harvest enforces across its workers (the depth limit is admission's). */
export type ClusterLimit = Extract<SkipReason, 'limit:pages' | 'limit:bytes' | 'limit:duration'>;

/** The window over which a worker's rate is measured. */
export const RATE_WINDOW_S = 30;

export interface WorkerStatus {
  id: string;
  host: string;
  state: 'live' | 'stopped' | 'dead';
  /** Live but not leasing: the harvest has fewer active workers than live ones. */
  standby: boolean;
  /** Seconds since its last heartbeat. */
  silentS: number;
  /** URLs it committed per second over the last RATE_WINDOW_S seconds. */
  rate: number;
  /** The size of its last batch, and the mean fetch time it was computed from. */
  batchSize: number;
  meanFetchMs: number | null;
  /** Sites it holds a lease on now. */
  sites: string[];
  fetched: number;
  failures: number;
  bytes: number;
  /** Its leases so far, and URLs taken back from it by a failover. */
  leases: number;
  returned: number;
}

export interface ClusterStatus {
  name: string;
  counts: Record<string, number>;
  /** URLs still to do (queued or leased). */
  pending: number;
  /**
   * The harvest is over: nothing is leased, and nothing is queued or a job limit stopped it (the
   * URLs it left queued are not fetched). Export then holds everything the harvest will fetch.
   */
  finished: boolean;
  /** How many of the live workers lease (`harvest control --workers`); null: every one. */
  activeWorkers: number | null;
  /** Paused (`harvest control --pause`): workers take no new batch; `counts.leased` are still in flight. */
  paused: boolean;
  /** The job limit (--max-pages, --max-bytes, --max-duration) the harvest reached, or null. */
  limit: ClusterLimit | null;
  /** The politeness every worker follows now. */
  politeness: Job['politeness'];
  workers: WorkerStatus[];
  /** A focused harvest's verdicts so far (absent without a template), as a local harvest's progress shows them. */
  focus?: FocusCounts;
}

/** A change to an attached cluster harvest: pause or resume, politeness, how many workers lease. */
export const ClusterControlSchema = z
  .object({
    paused: z.boolean().optional(),
    politeness: LiveControlSchema.optional(),
    /** null: every live worker leases. */
    activeWorkers: z.number().int().min(1).max(10_000).nullable().optional(),
  })
  .strict()
  .refine((c) => c.paused !== undefined || c.politeness !== undefined || c.activeWorkers !== undefined, 'give paused, politeness or activeWorkers');
export type ClusterControlInput = z.infer<typeof ClusterControlSchema>;

/** A PostgreSQL URL, as the attach form takes it. */
export const ClusterDbUrlSchema = z
  .string()
  .trim()
  .max(4000)
  .regex(/^postgres(ql)?:\/\/\S+$/i, 'give a PostgreSQL URL: postgres://user@host:5432/database');

/** A cluster harvest the host is attached to, as it last read it. */
export interface ClusterView {
  id: string;
  /** The database URL with its password left out: safe to show. */
  db: string;
  /** The last status read; null only if no read has succeeded yet. */
  status: ClusterStatus | null;
  /** Why the last read failed (the database unreachable, say), or null. */
  error: string | null;
  /** When the host last tried to read it (ISO 8601). */
  checkedAt: string;
}

/**
 * The URL without its password, whether in the user-info part or a `password` parameter: what the
 * app may show and repeat in messages.
 */
export function redactDbUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.searchParams.delete('password');
    return u.toString();
  } catch {
    // Unparseable: show only the scheme, since where a password would be can't be told.
    return `${url.split(':')[0] ?? 'postgres'}://…`;
  }
}
