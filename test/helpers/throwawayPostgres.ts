import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './benchSite.js';

/** Debian's PostgreSQL 15 (the `postgresql` package); HARVEST_PG_BIN points elsewhere. */
const PG_BIN = process.env.HARVEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/harvest, trust authentication, loopback only. */
  url: string;
  /** Shuts the server down (fast: sessions are ended, as by a service restart), keeping its data. */
  down(): Promise<void>;
  /** Starts it again on the same port and data. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL cluster of its own for one test file: initdb into a temp folder, pg_ctl start on
 * 127.0.0.1 at a free port (its unix socket in the same folder), a `harvest` database; stop() shuts
 * it down and removes the folder. PostgreSQL refuses to run as root, so as root (CI containers) it
 * runs as the `postgres` user the Debian package creates.
 */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'harvest-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const run = (cmd: string, args: string[]) => exec(asRoot ? 'runuser' : path.join(PG_BIN, cmd), asRoot ? ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args] : args);
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  const up = () => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', opts, '-w', 'start']);
  try {
    await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await up();
    await run('createdb', ['-h', dir, '-p', String(port), '-U', 'postgres', 'harvest']);
  } catch (e) {
    await run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/harvest`,
    down: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    up,
    async stop() {
      await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The uid and gid of a system user (`id -u`/`id -g`). */
function idOf(flag: '-u' | '-g', name: string): number {
  return Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
}

const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);

function exec(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args.find((a) => a.includes(PG_BIN)) ?? cmd)} failed (${code}): ${err.trim()}`))));
  });
}

/** One query on a connection of its own: what a test reads of a cluster harvest's tables. */
export async function query<T extends pg.QueryResultRow>(db: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
