import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './benchSite.js';

export interface Worker {
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
  return { child, exit, log: () => log };
}
