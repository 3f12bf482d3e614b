import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveControlSchema, type LiveControl } from '../../shared/job.js';
import { controlCluster } from '../engine/cluster/clusterControl.js';
import { openClusterDb } from '../engine/cluster/coordination.js';
import { applyControl, describePoliteness, requestControl, takeControlReply } from '../engine/crawl/liveControl.js';
import { Archive } from '../engine/store/archive.js';
import { CONTROL_FILE } from '../engine/store/archiveFolder.js';
import { ArchiveInUseError } from '../engine/store/catalogue.js';
import { controlEffect, rateLimitSentence } from '../../shared/politenessText.js';
import { parseCommandArgs, UsageError } from './usage.js';

/** How long `harvest control` waits for a running crawl to take the change (it looks once a second). */
const TAKE_TIMEOUT_MS = 5_000;
/** How long it waits after that for the crawl's reply saying what is in force. */
const REPLY_TIMEOUT_MS = 2_000;

/**
 * `harvest control <archive-dir> [--connections N] [--delay-ms M | --adaptive-delay]`: changes a
 * crawl's politeness, at once if it is running (in this or another process), else for its next run.
 * With `--db <postgres-url>`, a cluster harvest's politeness, how many of its workers lease, and
 * `--pause` / `--resume`.
 */
export async function runControl(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('control', args, {
    connections: { type: 'string' },
    'delay-ms': { type: 'string' },
    'adaptive-delay': { type: 'boolean' },
    db: { type: 'string' },
    workers: { type: 'string' },
    'all-workers': { type: 'boolean' },
    pause: { type: 'boolean' },
    resume: { type: 'boolean' },
  });
  if (values['delay-ms'] !== undefined && values['adaptive-delay']) throw new UsageError('give --delay-ms or --adaptive-delay, not both', 'control');
  if (values.db !== undefined) return controlClusterHarvest(values.db, positionals, values);
  if (values.workers !== undefined || values['all-workers'] || values.pause || values.resume) {
    throw new UsageError('--workers, --all-workers, --pause and --resume are for a cluster harvest (--db <postgres-url>)', 'control');
  }
  if (positionals.length !== 1) throw new UsageError('control needs exactly one <archive-dir>, or --db <postgres-url>', 'control');
  const dir = path.resolve(positionals[0]!);
  const wanted = politenessWanted(values);
  return (await changeIdle(dir, wanted)) ?? (await changeRunning(dir, wanted));
}

interface ControlFlags {
  connections?: string | undefined;
  'delay-ms'?: string | undefined;
  'adaptive-delay'?: boolean | undefined;
  workers?: string | undefined;
  'all-workers'?: boolean | undefined;
  pause?: boolean | undefined;
  resume?: boolean | undefined;
}

/** The politeness change the flags ask for; a usage error names a bad value. */
function politenessWanted(values: ControlFlags): LiveControl {
  const wanted = LiveControlSchema.safeParse({
    ...(values.connections !== undefined && { perHostConnections: Number(values.connections) }),
    ...(values['delay-ms'] !== undefined && { delayMs: Number(values['delay-ms']) }),
    ...(values['adaptive-delay'] && { delayMs: null }),
  });
  if (!wanted.success) {
    throw new UsageError(wanted.error.issues.map((i) => (i.path[0] === 'perHostConnections' ? `--connections: ${i.message}` : i.path[0] === 'delayMs' ? `--delay-ms: ${i.message}` : i.message)).join('; '), 'control');
  }
  return wanted.data;
}

/** `harvest control --db`: the change goes into the harvest row, where every worker reads it. */
async function controlClusterHarvest(url: string, positionals: string[], values: ControlFlags): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`control --db takes no <archive-dir>, got '${positionals[0]}'`, 'control');
  if (values.workers !== undefined && values['all-workers']) throw new UsageError('give --workers or --all-workers, not both', 'control');
  if (values.pause && values.resume) throw new UsageError('give --pause or --resume, not both', 'control');
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) throw new UsageError(`--workers needs a whole number of at least 1, got '${values.workers}'`, 'control');
  const askedPoliteness = values.connections !== undefined || values['delay-ms'] !== undefined || values['adaptive-delay'] === true;
  if (!askedPoliteness && workers === undefined && !values['all-workers'] && !values.pause && !values.resume) {
    throw new UsageError('give --connections, --delay-ms, --adaptive-delay, --workers, --all-workers, --pause or --resume', 'control');
  }
  const db = await openClusterDb(url);
  try {
    const now = await controlCluster(db, {
      ...(askedPoliteness && { politeness: politenessWanted(values) }),
      ...(workers !== undefined && { activeWorkers: workers }),
      ...(values['all-workers'] && { activeWorkers: null }),
      ...(values.pause && { paused: true }),
      ...(values.resume && { paused: false }),
    });
    const who = now.activeWorkers === null ? 'every live worker leases' : `the first ${now.activeWorkers} live worker${now.activeWorkers === 1 ? '' : 's'} by id lease, the others stand by`;
    const state = now.paused ? 'is paused (workers finish the batches they hold and take no new one)' : 'runs';
    process.stdout.write(`the cluster harvest now ${state} with ${describePoliteness(now.politeness)}; ${who} (each worker takes it before its next batch)\n`);
    return 0;
  } finally {
    await db.end();
  }
}

/** No crawl holds the archive: the job is changed for its next run. Null when a crawl holds it. */
async function changeIdle(dir: string, control: LiveControl): Promise<number | null> {
  let archive: Archive;
  try {
    archive = Archive.open(dir);
  } catch (e) {
    if (e instanceof ArchiveInUseError) return null;
    throw e;
  }
  try {
    const politeness = applyControl(archive.job, control);
    archive.catalogue.setMeta('job', JSON.stringify({ ...archive.job, politeness }));
    process.stdout.write(`no crawl is running on ${dir}; its next run will use ${describePoliteness(politeness)}: ${rateLimitSentence(politeness)}\n`);
    return 0;
  } finally {
    archive.close();
  }
}

/** A crawl holds the archive: the change is dropped into the folder for it to take. */
async function changeRunning(dir: string, control: LiveControl): Promise<number> {
  takeControlReply(dir);
  requestControl(dir, control);
  const file = path.join(dir, CONTROL_FILE);
  const deadline = Date.now() + TAKE_TIMEOUT_MS;
  while (existsSync(file) && Date.now() < deadline) await sleep(100);
  if (existsSync(file)) {
    process.stdout.write(`the crawl holding ${dir} has not taken the change yet; it will at its next check\n`);
    return 0;
  }
  // The crawl removes the request as it reads it and leaves its reply a moment later.
  let reply = takeControlReply(dir);
  for (const end = Date.now() + REPLY_TIMEOUT_MS; reply === null && Date.now() < end; reply = takeControlReply(dir)) await sleep(50);
  const effect = reply === null ? 'see its progress for the settings now in force' : controlEffect(reply.before, reply.after);
  process.stdout.write(`the running crawl took the change: ${effect}\n`);
  return 0;
}
