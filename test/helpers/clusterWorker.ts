import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './benchSite.js';
import { query } from './throwawayPostgres.js';

export interface Worker {
  id: string;
  child: ChildProcess;
  exit: Promise<number | null>;
  log: () => string;
}

/** A `harvest worker` process on the harvest at `db`, its requests from `address` (a loopback address of its own). */
export function startWorker(db: string, store: string, id: string, address: string, extra: string[] = []): Worker {
  const child = spawn(process.execPath, [CLI, 'worker', '--db', db, '--store', store, '--id', id, '--local-address', address, '--retry-backoff-ms', '200', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { id, child, exit, log: () => log };
}

/**
 * The worker's exit code, or a failed assertion naming it, `why` (what is still to do, read when
 * the time is up) and the end of its log when it has not exited within `ms`: a worker that never
 * ends must fail its test, not hang it until the runner's timeout.
 */
export async function exitWithin(w: Worker, ms: number, why: () => Promise<string> = async () => ''): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), ms)));
  const code = await Promise.race([w.exit, late]).finally(() => clearTimeout(timer));
  if (code === 'running') assert.fail(`worker ${w.id} still running ${ms / 1000} s on${await why()}; its log ends:\n${w.log().slice(-1500)}`);
  return code;
}

/** SIGKILLs the workers still running, so a test that failed leaves none harvesting (nor its runner waiting on them). */
export function killRunning(workers: Worker[]): void {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
}

/** What a cluster harvest still has to do, per site (queued and leased URLs, holder, claim), and its workers' states: for a failure's message. */
export async function pendingWork(db: string): Promise<string> {
  const sites = await query<{ site: string; queued: string; leased: string; holder: string | null; claimed_by: string | null }>(
    db,
    `SELECT s.site, count(*) FILTER (WHERE u.state = 'queued') AS queued, count(*) FILTER (WHERE u.state = 'leased') AS leased, s.holder, s.claimed_by
     FROM sites s JOIN urls u ON u.site = s.site WHERE u.state IN ('queued', 'leased') GROUP BY s.site ORDER BY s.site`,
  );
  const workers = await query<{ id: string; state: string }>(db, 'SELECT id, state FROM workers ORDER BY id');
  const todo = sites.map((s) => `${s.site}: ${s.queued} queued, ${s.leased} leased, held by ${s.holder ?? 'no one'}, claimed by ${s.claimed_by ?? 'no one'}`);
  return ` (${todo.length === 0 ? 'nothing queued or leased' : todo.join('; ')}; workers: ${workers.map((w) => `${w.id} ${w.state}`).join(', ')})`;
}
