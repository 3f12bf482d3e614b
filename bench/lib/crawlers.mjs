// The crawlers under test and one measured run of any of them against a BenchServer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { duBytes, linkcheck, runMeasured } from './measure.mjs';
import { serverCounters } from './site.mjs';

/** What each crawler sends as Accept-Encoding (serve.mjs prefers br, then gzip; wget sends none): the warm-up, the floors and scenario 8's bare client send Harvest's. */
export const ACCEPT_ENCODINGS = { harvest: 'gzip, deflate, br', httrack: 'gzip, identity;q=0.9' };

/** Trap URLs wget must be told to reject to finish at all (as the peers' reference commands in bench/harness/README.md do). */
const TRAP_REGEX = '/(events/calendar|a/b/|search\\?|deep/)';

/** Peers by the name `--peers` takes, with the commands bench/harness/README.md prescribes. */
export const PEERS = {
  wget: (origin, out) => ['wget', '--mirror', '--convert-links', '--adjust-extension', '--page-requisites', '--no-parent', '-e', 'robots=on', '-nv', '-o', `${out}.log`, '-P', out, `${origin}/`],
  'wget-guarded': (origin, out) => [...PEERS.wget(origin, out).slice(0, -1), '--reject-regex', TRAP_REGEX, `${origin}/`],
  // The peer doing Harvest's job: a compressed WARC beside the browsable, rewritten copy.
  'wget-warc': (origin, out) => [...PEERS['wget-guarded'](origin, out).slice(0, -1), `--warc-file=${path.join(out, 'archive')}`, `${origin}/`],
  // Security limits off: without -%c0 -A0 -%! HTTrack fetches about one URL a second.
  httrack: (origin, out) => ['httrack', `${origin}/`, '-O', out, '-q', '-c8', '-%c0', '-A0', '-%!'],
};

/** Installs wget, httrack and GNU time from Debian when missing (the bench machine is root). */
export function ensureTools(peers, log) {
  const need = [];
  if (!fs.existsSync('/usr/bin/time')) need.push('time');
  if (peers.some((p) => p.startsWith('wget')) && !onPath('wget')) need.push('wget');
  if (peers.includes('httrack') && !onPath('httrack')) need.push('httrack');
  if (need.length === 0) return;
  log(`installing ${need.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const up = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const inst = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...need], { stdio: 'inherit', env });
  if (up.status !== 0 || inst.status !== 0) throw new Error(`apt-get install ${need.join(' ')} failed`);
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** Harvest's CLI with the bench's settings given explicitly (the defaults stay polite for real sites). */
export function harvestCommand(root, args, { connections = 8 } = {}) {
  // A resume keeps the settings its crawl was started with.
  const settings = args[0] === 'crawl' ? ['--connections', String(connections), '--delay-ms', '0'] : [];
  return [harvestBin(root), ...args, ...settings, '--quiet'];
}

/**
 * The command line's bundle, run as an installed `harvest` is: through its `#!` line, which starts
 * node with the memory settings that must be set at a process's start (electron/cli/harvest.ts).
 */
export function harvestBin(root) {
  return path.join(root, 'dist/electron/bundle/harvest.js');
}

/** How to start another build's bundle (`--baseline`, `--cli`): through its `#!` line when it is executable; builds from before that line carried settings were not, and node runs them. */
export function launchCommand(bundle) {
  try {
    fs.accessSync(bundle, fs.constants.X_OK);
    return [bundle];
  } catch {
    return [process.execPath, bundle];
  }
}

/** measureRun for a Harvest crawl into `archive`: its mirror is checked, the whole archive measured on disk. */
export function measureHarvest(ctx, { archive, ...run }) {
  return measureRun({ name: 'harvest', mirrorDir: path.join(archive, 'mirror'), diskDir: archive, capSeconds: ctx.harvestCap, benchDir: ctx.benchDir, keepMirrors: ctx.keepMirrors, ...run });
}

/**
 * One measured mirror of the served site: stats reset, the crawler under time -v and the cap, then
 * the server's counters, bytes on disk (of `diskDir`: the whole archive for Harvest) and linkcheck. Mirrors are deleted afterwards unless kept.
 */
export async function measureRun({ name, cmd, outDir, mirrorDir, diskDir, server, capSeconds, benchDir, keepMirrors, check = true }) {
  await server.reset();
  const run = await runMeasured(cmd, { dir: outDir, capSeconds });
  const counters = serverCounters(await server.stats());
  const diskBytes = fs.existsSync(diskDir) ? duBytes(diskDir) : null;
  const lc = check && fs.existsSync(mirrorDir) ? linkcheck(benchDir, mirrorDir, server.site.manifestFile, path.join(outDir, 'linkcheck.json')) : {};
  if (!keepMirrors) fs.rmSync(mirrorDir, { recursive: true, force: true });
  const wall = run.wallSeconds;
  return {
    name,
    ...run,
    ended: run.capped ? 'cap' : run.exit === 0 || (name.startsWith('wget') && run.exit === 8) ? 'finished' : `exit ${run.exit}`,
    ...counters,
    htmlPerSec: counters.html200 ? Math.round((counters.html200 / wall) * 10) / 10 : null,
    requestsPerSec: counters.requests ? Math.round((counters.requests / wall) * 10) / 10 : null,
    diskMiB: diskBytes == null ? null : Math.round(diskBytes / 104857.6) / 10,
    coverage: lc.coverage ? pick(lc.coverage, ['pages', 'pagesTotal', 'pagesPct', 'assets', 'assetsTotal', 'assetsPct', 'missingExamples']) : null,
    links: lc.links ? pick(lc.links, ['refs', 'local', 'escaped', 'broken', 'localPct', 'escapedPct', 'brokenPct', 'escapedArchivable', 'brokenArchivable', 'fidelityPct']) : null,
    linkcheckError: lc.error ?? null,
  };
}

function pick(o, keys) {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, k === 'missingExamples' ? o[k].slice(0, 5) : o[k]]));
}
