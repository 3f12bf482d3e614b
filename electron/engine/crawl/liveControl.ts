import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LiveControlSchema, type Job, type LiveControl } from '../../../shared/job.js';
import { ALLOW_ALL } from '../politeness/robots.js';
import type { Fetcher } from '../fetch/fetcher.js';
import type { HostGates } from '../politeness/hostGate.js';
import type { Archive } from '../store/archive.js';
import { CONTROL_FILE, TMP_DIR } from '../store/archiveFolder.js';
import type { Lanes } from './lanes.js';
import { gateLimitsFor } from './politeDelay.js';

/**
 * Politeness changed while a crawl runs, across processes: `harvest control` (or the app's host)
 * drops `control.json` into the archive folder and the crawl takes it at its next tick, as
 * Heritrix takes files dropped into its action directory. A file makes it work whichever process
 * runs the crawl (only that process may write the catalogue).
 */
export function requestControl(archiveDir: string, control: LiveControl): void {
  const tmpDir = path.join(archiveDir, TMP_DIR);
  mkdirSync(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${CONTROL_FILE}.${process.pid}`);
  writeFileSync(tmp, JSON.stringify(LiveControlSchema.parse(control)));
  // Whole or not at all: the crawl never reads half a file.
  renameSync(tmp, path.join(archiveDir, CONTROL_FILE));
}

/** What a crawl did with a control request: the politeness before and after, for `harvest control` to report. */
export interface ControlReply {
  before: Job['politeness'];
  after: Job['politeness'];
}

/** Beside the scratch files: only the crawl may write the catalogue, so the reply cannot be left there. */
const replyFile = (archiveDir: string) => path.join(archiveDir, TMP_DIR, `${CONTROL_FILE}.reply`);

function writeControlReply(archiveDir: string, reply: ControlReply): void {
  try {
    const tmpDir = path.join(archiveDir, TMP_DIR);
    mkdirSync(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `${CONTROL_FILE}.reply.${process.pid}`);
    writeFileSync(tmp, JSON.stringify(reply));
    renameSync(tmp, replyFile(archiveDir));
  } catch {
    // Only the wording of `harvest control`'s answer depends on it.
  }
}

/** The reply the crawl left for the last request, removed as it is read; null when there is none (yet). */
export function takeControlReply(archiveDir: string): ControlReply | null {
  const file = replyFile(archiveDir);
  let text: string | null;
  try {
    text = readRegularFile(file);
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  try {
    const r = JSON.parse(text ?? '') as ControlReply;
    return typeof r.before?.perHostConnections === 'number' && typeof r.after?.perHostConnections === 'number' ? r : null;
  } catch {
    return null;
  }
}

/** The control request waiting in the folder, removed as it is taken; null when none; an error names what is wrong with it. */
export function takeControl(archiveDir: string): LiveControl | { error: string } | null {
  const file = path.join(archiveDir, CONTROL_FILE);
  let text: string | null;
  try {
    text = readRegularFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // A link (O_NOFOLLOW) is refused as anything else that is not a plain file.
    if (code !== 'ELOOP' && code !== 'EMLINK') throw e;
    text = null;
  }
  rmSync(file, { force: true });
  if (text === null) return { error: `${CONTROL_FILE} is not a regular file` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: `${CONTROL_FILE} is not JSON` };
  }
  const parsed = LiveControlSchema.safeParse(json);
  return parsed.success ? parsed.data : { error: `${CONTROL_FILE}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')}` };
}

/** Bigger than any control request `harvest control` writes. */
const MAX_CONTROL_BYTES = 64 * 1024;

/**
 * The file's text, or null when it is not a regular file. Opened without blocking and without
 * following a link, so a FIFO (which would wait for a writer, freezing the crawl and its Ctrl-C)
 * or a device is turned down before anything is read.
 */
function readRegularFile(file: string): string | null {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(Math.min(st.size, MAX_CONTROL_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The job's politeness with the control applied. */
export function applyControl(job: Job, control: LiveControl): Job['politeness'] {
  return {
    ...job.politeness,
    ...(control.perHostConnections !== undefined && { perHostConnections: control.perHostConnections }),
    ...(control.delayMs !== undefined && { delayMs: control.delayMs }),
  };
}

/** How a politeness setting reads in a message: "3 connections per host, adaptive delay". */
export function describePoliteness(p: Job['politeness']): string {
  const connections = `${p.perHostConnections} connection${p.perHostConnections === 1 ? '' : 's'} per host`;
  return `${connections}, ${p.delayMs === null ? 'adaptive delay' : `${p.delayMs} ms between requests`}`;
}

/**
 * Takes a running crawl's waiting control request, if any, and applies it: the job keeps it (a
 * resumed run goes on with it), and the connection pool, lanes and host gates follow at once.
 * Returns the politeness now in force, the request's error, or null when none waited.
 */
export function takeLiveControl(p: { archive: Archive; fetcher: Fetcher; lanes: Lanes; gates: HostGates }): Job['politeness'] | { error: string } | null {
  const control = takeControl(p.archive.dir);
  if (control === null || 'error' in control) return control;
  const job = p.archive.job;
  const before = { ...job.politeness };
  const politeness = applyControl(job, control);
  writeControlReply(p.archive.dir, { before, after: politeness });
  Object.assign(job.politeness, politeness);
  p.archive.catalogue.setMeta('job', JSON.stringify(job));
  p.fetcher.setConnectionsPerOrigin(politeness.perHostConnections);
  p.lanes.raiseCapacity(politeness.perHostConnections);
  for (const s of p.lanes.knownSites()) p.gates.relax(s.host, gateLimitsFor(job, s.robots ?? ALLOW_ALL));
  return politeness;
}
