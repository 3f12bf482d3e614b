import type pg from 'pg';
import { redactDbUrl, type ClusterControlInput, type ClusterView } from '../../shared/cluster.js';
import type { HostEvent } from '../../shared/contract.js';
import { controlCluster } from '../engine/cluster/clusterControl.js';
import { openClusterDb } from '../engine/cluster/coordination.js';
import { ClusterSetupError, ClusterWorkerError } from '../engine/cluster/errors.js';
import { clusterStatus } from '../engine/cluster/status.js';
import { HostError } from './hostError.js';

/** How often an attached harvest is read: its status query counts the frontier, so not too often. */
export const DEFAULT_CLUSTER_POLL_MS = 2_000;

/** An unreachable host must not hold a command (or a poll) for long. */
const POOL_LIMITS = { connectionTimeoutMillis: 10_000, query_timeout: 20_000 };

interface Attached {
  view: ClusterView;
  /** The full URL (with its password) stays here, never in a view. */
  url: string;
  pool: pg.Pool;
  timer: NodeJS.Timeout | null;
  detached: boolean;
}

/**
 * The cluster harvests the app watches: attached by PostgreSQL URL (one harvest per database), read
 * every `pollMs` with the same status query as `harvest cluster status` and pushed as 'cluster'
 * events; controlled (pause, resume, politeness, active workers) through the harvest row as
 * `harvest control --db` does. Attachments last while the host runs; URLs are not stored, as they
 * may carry a password.
 */
export class ClusterWatch {
  private readonly attached = new Map<string, Attached>();
  private serial = 0;

  constructor(
    private readonly publish: (e: HostEvent) => void,
    private readonly pollMs = DEFAULT_CLUSTER_POLL_MS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Attaches to the harvest in the database at `url` (again: the attachment already made). */
  async attach(url: string): Promise<ClusterView> {
    const db = redactDbUrl(url);
    for (const a of this.attached.values()) if (a.url === url) return a.view;
    let pool: pg.Pool;
    try {
      pool = await openClusterDb(url, 2, POOL_LIMITS);
    } catch (e) {
      throw new HostError('unavailable', `${db}: ${scrub(messageOf(e), url)}`);
    }
    const a: Attached = { view: { id: `cluster-${++this.serial}`, db, status: null, error: null, checkedAt: this.now().toISOString() }, url, pool, timer: null, detached: false };
    try {
      a.view = { ...a.view, status: await clusterStatus(pool) };
    } catch (e) {
      await pool.end().catch(() => {});
      throw toHostError(e, a);
    }
    this.attached.set(a.view.id, a);
    this.schedule(a);
    return a.view;
  }

  list(): ClusterView[] {
    return [...this.attached.values()].map((a) => a.view);
  }

  /** Changes the harvest (workers take it before their next batch) and answers with a fresh read. */
  async control(id: string, control: ClusterControlInput): Promise<ClusterView> {
    const a = this.get(id);
    try {
      await controlCluster(a.pool, control);
    } catch (e) {
      throw toHostError(e, a);
    }
    await this.poll(a);
    if (a.view.error !== null) throw new HostError('unavailable', a.view.error);
    return a.view;
  }

  async detach(id: string): Promise<{ id: string }> {
    const a = this.get(id);
    this.attached.delete(id);
    await this.end(a);
    this.publish({ type: 'cluster-detached', id });
    return { id };
  }

  async shutdown(): Promise<void> {
    const all = [...this.attached.values()];
    this.attached.clear();
    await Promise.all(all.map((a) => this.end(a)));
  }

  private get(id: string): Attached {
    const a = this.attached.get(id);
    if (a === undefined) throw new HostError('not-found', `not attached to a cluster harvest '${id}'`);
    return a;
  }

  private async end(a: Attached): Promise<void> {
    a.detached = true;
    if (a.timer !== null) clearTimeout(a.timer);
    await a.pool.end().catch(() => {});
  }

  /** The next read after the last one ended, so a slow database never has two status queries at once. */
  private schedule(a: Attached): void {
    a.timer = setTimeout(() => {
      a.timer = null;
      void this.poll(a).then(() => {
        if (!a.detached && a.timer === null) this.schedule(a);
      });
    }, this.pollMs);
  }

  /** Reads the status; a failure is kept in the view (with the last status read) until a read succeeds. */
  private async poll(a: Attached): Promise<void> {
    let next: ClusterView;
    try {
      next = { ...a.view, status: await clusterStatus(a.pool), error: null, checkedAt: this.now().toISOString() };
    } catch (e) {
      next = { ...a.view, error: toHostError(e, a).message, checkedAt: this.now().toISOString() };
    }
    if (a.detached) return;
    a.view = next;
    this.publish({ type: 'cluster', cluster: next });
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A password can't reach a message even if a driver repeats the URL. */
function scrub(message: string, url: string): string {
  let password = '';
  try {
    const u = new URL(url);
    password = decodeURIComponent(u.password || u.searchParams.get('password') || '');
  } catch {
    // An unparseable URL failed before any message could quote it.
  }
  return password === '' ? message : message.split(password).join('***');
}

/** The harvest's own errors name their cause (no harvest, another version); the rest are the database's. */
function toHostError(e: unknown, a: Pick<Attached, 'url' | 'view'>): HostError {
  const message = scrub(messageOf(e), a.url);
  if (e instanceof ClusterSetupError) return new HostError('not-found', `${a.view.db}: ${message}`);
  if (e instanceof ClusterWorkerError) return new HostError('unavailable', `${a.view.db}: ${message}`);
  return new HostError('unavailable', `${a.view.db}: the database did not answer: ${message}`);
}
