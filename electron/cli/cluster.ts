import { mkdtempSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/metadata.js';
import { focusSentence, formatBytes, plural } from '../../shared/format.js';
import { finishClusterMirror } from '../engine/cluster/finishMirror.js';
import { clusterArchive, finishWorkerWarcs } from '../engine/cluster/clusterArchive.js';
import { openClusterDb } from '../engine/cluster/coordination.js';
import { DEFAULT_LEASE_TIMEOUT_MS, initCluster } from '../engine/cluster/schema.js';
import type { ClusterStatus } from '../../shared/cluster.js';
import type { Job } from '../../shared/job.js';
import { clusterStatus } from '../engine/cluster/status.js';
import { DEFAULT_TARGET_LEASE_MS } from '../engine/cluster/batchSize.js';
import { ClusterWorker } from '../engine/cluster/worker.js';
import { EXPORTERS } from '../engine/export/exporters.js';
import { readMetadata } from '../engine/store/metadata.js';
import { checkPrefix } from '../engine/warc/fileNames.js';
import { readSeedList, type SeedLine } from '../engine/crawl/seedList.js';
import { checkSeeds, CRAWL_OPTIONS, jobWithSeeds } from './crawlFlags.js';
import { parseCommandArgs as parse, UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

/** Crawl options a cluster harvest does not take (yet), with why. */
const NOT_IN_CLUSTER: Partial<Record<keyof typeof CRAWL_OPTIONS, string>> = {
  out: 'workers write under their --store',
  'events-jsonl': 'see harvest cluster status',
};

/**
 * Template parts that act on a run's seed list, which a cluster harvest queues once at init: seed
 * discovery's requests would go from the init machine outside any worker's politeness and WARC, and
 * crawl probability draws again at each `harvest resume`, which a cluster harvest has no counterpart of.
 */
function refuseLocalOnlyTemplateParts(job: Job): void {
  const t = job.template;
  if (t === null) return;
  if (t.seeds !== null) throw new UsageError('--template: seeds (seed discovery) does not apply to a cluster harvest: its requests are made before a crawl\'s first, outside the workers; give the seeds found by a local run, or a --seeds-file', 'cluster');
  if (t.crawlProbability.enabled) throw new UsageError('--template: crawlProbability does not apply to a cluster harvest: it draws the seeds again at each resume, and a cluster harvest is not resumed', 'cluster');
}

async function* urlsOf(lines: AsyncIterable<SeedLine>): AsyncGenerator<string> {
  for await (const { url } of lines) yield url;
}

/**
 * A worker's pools: a connection attempt to a database out of reach fails within 10 s rather than
 * waiting on the network, and a connection whose peer vanished is found by keep-alives.
 */
const WORKER_POOL = { connectionTimeoutMillis: 10_000, keepAlive: true };

async function withDb<T>(url: string | undefined, command: 'cluster' | 'worker', fn: (db: pg.Pool) => Promise<T>): Promise<T> {
  if (!url) throw new UsageError(`${command} needs --db <postgres-url>`, command);
  const db = await openClusterDb(url, 4, command === 'worker' ? WORKER_POOL : {});
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

/** `harvest cluster init|status|export`. */
export async function runCluster(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'init': {
      const { values, positionals } = parse('cluster', rest, { ...CRAWL_OPTIONS, db: { type: 'string' }, 'lease-timeout': { type: 'string' } });
      for (const [flag, why] of Object.entries(NOT_IN_CLUSTER)) {
        if (values[flag as keyof typeof values] !== undefined) throw new UsageError(`--${flag} does not apply to a cluster harvest: ${why}`, 'cluster');
      }
      if (!values.name) throw new UsageError('cluster init needs --name <n>', 'cluster');
      const seedsFile = values['seeds-file'];
      checkSeeds(positionals, seedsFile);
      const job = await jobWithSeeds(positionals, seedsFile, values);
      refuseLocalOnlyTemplateParts(job);
      const timeoutS = values['lease-timeout'] === undefined ? undefined : Number(values['lease-timeout']);
      if (timeoutS !== undefined && !(timeoutS >= 1)) throw new UsageError(`--lease-timeout needs a number of seconds, at least 1, got '${values['lease-timeout']}'`, 'cluster');
      return withDb(values.db, 'cluster', async (db) => {
        const list = seedsFile === undefined ? undefined : urlsOf(readSeedList(seedsFile));
        const seeds = await initCluster(db, job, timeoutS === undefined ? DEFAULT_LEASE_TIMEOUT_MS : timeoutS * 1000, list);
        process.stderr.write(`harvest '${job.name}' created with ${plural(seeds, 'seed')}; start workers with: harvest worker --db <url> --store <dir>\n`);
        return 0;
      });
    }
    case 'status': {
      const { values, positionals } = parse('cluster', rest, { db: { type: 'string' }, json: { type: 'boolean' } });
      if (positionals.length > 0) throw new UsageError(`cluster status takes no arguments, got '${positionals[0]}'`, 'cluster');
      return withDb(values.db, 'cluster', async (db) => {
        const s = await clusterStatus(db);
        process.stdout.write(values.json ? JSON.stringify(s, null, 2) + '\n' : statusText(s));
        return 0;
      });
    }
    case 'export':
      return runClusterExport(rest);
    default:
      throw new UsageError(sub === undefined ? 'cluster needs init, status or export' : `unknown cluster command '${sub}'`, 'cluster');
  }
}

function statusText(s: ClusterStatus): string {
  const counts = Object.entries(s.counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const limit = s.limit === null ? '' : `, ${s.limit} reached`;
  const lines = [`${s.name}: ${s.finished ? 'finished' : `${s.pending} URLs to do`}${limit}; ${counts || 'no URLs'}`];
  if (s.paused && s.pending > 0) lines.push(`paused: workers take no new batch (harvest control --resume lets them go on)`);
  if (s.focus !== undefined) lines.push(focusSentence(s.focus));
  if (s.activeWorkers !== null) lines.push(`only the first ${s.activeWorkers} live worker${s.activeWorkers === 1 ? '' : 's'} by id lease (harvest control --all-workers lets every one)`);
  lines.push('worker\tstate\trate/s\tbatch\tfetch ms\tfetched\tfailures\treturned\tsites');
  for (const w of s.workers) {
    lines.push(
      `${w.id}\t${w.standby ? 'standby' : w.state}${w.state === 'live' ? '' : ` (${Math.round(w.silentS)} s)`}\t${w.rate}\t${w.batchSize}\t${w.meanFetchMs ?? '-'}\t${w.fetched}\t${w.failures}\t${w.returned}\t${w.sites.join(' ') || '-'}`,
    );
  }
  return lines.join('\n') + '\n';
}

async function runClusterExport(rest: string[]): Promise<number> {
  const { values, positionals } = parse('cluster', rest, {
    db: { type: 'string' },
    store: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string', short: 'o' },
    'include-mirror': { type: 'boolean' },
    quiet: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`cluster export takes no arguments, got '${positionals[0]}'`, 'cluster');
  const format = values.format;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format ?? '')) throw new UsageError(`cluster export needs --format ${EXPORT_FORMATS.join('|')}`, 'cluster');
  const withMirror = format === 'zip' || (format === 'bagit' && values['include-mirror'] === true);
  if (!values.store) throw new UsageError('cluster export needs --store <dir>', 'cluster');
  if (!values.out) throw new UsageError('cluster export needs --out <path>', 'cluster');
  const out = path.resolve(values.out);
  const store = values.store;
  return withDb(values.db, 'cluster', async (db) => {
    const repaired = await finishWorkerWarcs(db, store);
    if (repaired.length > 0 && !values.quiet) process.stderr.write(`finished ${plural(repaired.length, 'WARC file')} left open by stopped workers\n`);
    // The catalogue the exporters read, made from the database beside the output and removed after.
    const work = mkdtempSync(path.join(path.dirname(out), '.harvest-cluster-'));
    try {
      const archive = await clusterArchive(db, store, path.join(work, 'archive'));
      try {
        if (withMirror) {
          if (archive.catalogue.getMeta('state') !== 'finished') throw new UsageError('the mirror is finished when the harvest is: export it as zip or with --include-mirror once cluster status says finished', 'cluster');
          const rewritten = await finishClusterMirror(archive, store);
          if (!values.quiet) process.stderr.write(`finishing pass: ${plural(rewritten, 'document')} of the mirror rewritten with the final link targets\n`);
        }
        const result = await EXPORTERS[format as ExportFormat](archive, out, { metadata: readMetadata(archive.catalogue), includeMirror: withMirror });
        process.stderr.write(`exported ${format}: ${result.path} (${formatBytes(result.bytes)}, ${plural(result.files, 'file')})\n`);
      } finally {
        archive.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return 0;
  });
}

/** `harvest worker`: runs until the harvest has nothing left (0) or a signal stops it (130). */
export async function runWorker(args: string[]): Promise<number> {
  const { values, positionals } = parse('worker', args, {
    db: { type: 'string' },
    store: { type: 'string' },
    id: { type: 'string' },
    'lease-seconds': { type: 'string' },
    sites: { type: 'string' },
    'local-address': { type: 'string' },
    'retry-backoff-ms': { type: 'string' },
    'browser-path': { type: 'string' },
    'db-wait-seconds': { type: 'string' },
    quiet: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`worker takes no arguments, got '${positionals[0]}'`, 'worker');
  if (!values.store) throw new UsageError('worker needs --store <dir>', 'worker');
  const id = values.id ?? `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '_');
  try {
    checkPrefix(id);
  } catch {
    throw new UsageError(`--id must be letters, digits, '.', '_' or '-', got '${id}'`, 'worker');
  }
  const number = (flag: string, v: string | undefined, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new UsageError(`--${flag} needs a number of at least ${min}, got '${v}'`, 'worker');
    return n;
  };
  const leaseS = number('lease-seconds', values['lease-seconds'], 0.1);
  const sites = number('sites', values.sites, 1);
  const backoff = number('retry-backoff-ms', values['retry-backoff-ms'], 0);
  const dbWaitS = number('db-wait-seconds', values['db-wait-seconds'], 0);
  const log = values.quiet ? () => {} : (line: string) => process.stderr.write(`worker ${id}: ${line}\n`);
  return withDb(values.db, 'worker', async (db) => {
    // Heartbeats on a connection of their own, so a pool busy with batch commits never delays them
    // past the lease timeout (which would have the worker declared dead while it works).
    const liveness = await openClusterDb(values.db!, 1, WORKER_POOL);
    const worker = await ClusterWorker.start(db, liveness, {
      id,
      store: path.resolve(values.store!),
      targetLeaseMs: leaseS === undefined ? DEFAULT_TARGET_LEASE_MS : leaseS * 1000,
      sites: sites === undefined ? 16 : Math.floor(sites),
      ...(values['local-address'] !== undefined && { localAddress: values['local-address'] }),
      ...(backoff !== undefined && { retryBackoffMs: backoff }),
      ...(values['browser-path'] !== undefined && { browserPath: path.resolve(values['browser-path']) }),
      ...(dbWaitS !== undefined && { dbWaitMs: dbWaitS * 1000 }),
      log,
    }).catch(async (e: unknown) => {
      // A worker that cannot start (no browser for a --render harvest): its idle connection would hold the exit.
      await liveness.end();
      throw e;
    });
    log('started');
    const stopListening = onInterrupt(() => worker.stop());
    try {
      const end = await worker.run();
      log(end === 'finished' ? 'the harvest has nothing left to do' : 'stopped; its unfinished URLs are back in the queue');
      return end === 'finished' ? 0 : 130;
    } finally {
      stopListening();
      await liveness.end();
    }
  });
}
