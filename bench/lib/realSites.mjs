// Scenario 11: real documentation sites, each on its own nginx server, Harvest against the peer an
// archivist would pick for the same job: GNU wget writing a compressed WARC and a browsable,
// rewritten copy (`--mirror --convert-links --page-requisites --warc-file`), and HTTrack when asked.
// Runs alternate (Harvest, wget+WARC, [HTTrack], Harvest, ...) so a loaded machine weighs on each
// alike; medians are reported, CPU being user + sys from GNU time. Each round also runs the archiving
// floor (bench/floor.mjs --archive): the URLs Harvest's first run requested, fetched and archived by
// Harvest's own modules on one thread with no crawl machinery, the least Harvest's archive work costs.
// Then one profiled Harvest crawl per site splits its CPU per request by stage (stageProfile.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ACCEPT_ENCODINGS, harvestBin, launchCommand } from './crawlers.mjs';
import { duBytes, entriesIn, median, round, runMeasured, settledFileCreation } from './measure.mjs';
import { ensureDebianPackages, Nginx } from './nginx.mjs';
import { stageTable } from './stageProfile.mjs';

export const REAL_SITES = {
  postgresql: { title: 'PostgreSQL 15 manual', pkg: 'postgresql-doc-15', dir: '/usr/share/doc/postgresql-doc-15/html' },
  apache: { title: 'Apache httpd 2.4 manual', pkg: 'apache2-doc', dir: '/usr/share/doc/apache2-doc/manual' },
  python: { title: 'Python 3 documentation', pkg: 'python3-doc', dir: '/usr/share/doc/python3-doc/html' },
};
/** The sites and peers the targets name. */
const CPU_TARGET_SITES = ['postgresql', 'apache'];
const CPU_AIM = 1.5;

const harvestArgs = (origin, archive) => ['crawl', `${origin}/`, '--out', archive, '--no-offsite-requisites', '--connections', '8', '--delay-ms', '0', '--quiet'];

/**
 * Marks `dir` as the top of a folder tree (ext4's `chattr +T`), so the kernel's Orlov allocator puts
 * each folder made in it in a block group of its own, as it does at a file system's root: 1,200 files
 * deleted in one sibling made a new file cost 0.474 ms in the next, 0.018 ms so. Created if missing;
 * elsewhere than ext4 it does nothing.
 */
function spreadFolders(dir) {
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(dir, { recursive: true });
  spawnSync('chattr', ['+T', dir], { stdio: 'ignore' });
}

/** The crawlers of one run, by name: the command and the folder it writes. */
function crawlers(ctx, origin, dir, pathsFile) {
  const out = {
    harvest: (d) => ({ cmd: [harvestBin(ctx.root), ...harvestArgs(origin, d)], disk: d }),
    'wget-warc': (d) => ({
      cmd: ['wget', '--mirror', '--convert-links', '--adjust-extension', '--page-requisites', '--no-parent', '-e', 'robots=on', '-nv', '-o', `${d}.log`, '-P', d, `--warc-file=${path.join(d, 'archive')}`, `${origin}/`],
      disk: d,
    }),
  };
  // An earlier build of Harvest, run in the same alternation: before -> after on one loaded machine.
  if (ctx.baseline) out['harvest-baseline'] = (d) => ({ cmd: [...launchCommand(ctx.baseline), ...harvestArgs(origin, d)], disk: d });
  out['archiving-floor'] = (d) => ({
    cmd: [process.execPath, path.join(ctx.root, 'bench', 'floor.mjs'), '--origin', origin, '--paths-file', pathsFile, '--out', d, '--accept-encoding', ACCEPT_ENCODINGS.harvest, '--archive'],
    disk: d,
  });
  // The least any Node crawler pays: the same URLs fetched, decompressed, tokenised and written, with
  // no archive work at all (bench/floor.mjs without --archive).
  out['node-floor'] = (d) => ({
    cmd: [process.execPath, path.join(ctx.root, 'bench', 'floor.mjs'), '--origin', origin, '--paths-file', pathsFile, '--out', d, '--accept-encoding', ACCEPT_ENCODINGS.harvest],
    disk: d,
  });
  if (ctx.peers.includes('httrack')) out.httrack = (d) => ({ cmd: ['httrack', `${origin}/`, '-O', d, '-q', '-c8', '-%c0', '-A0', '-%!'], disk: d });
  return Object.fromEntries(Object.entries(out).map(([name, make]) => [name, make(path.join(dir, name))]));
}

function summary(runs, requestsOf) {
  const cpuMs = runs.map((r) => (r.cpuSeconds != null && r.requests ? (1000 * r.cpuSeconds) / r.requests : null));
  return {
    runs: runs.length,
    requests: median(runs.map(requestsOf)),
    wallSeconds: median(runs.map((r) => r.wallSeconds)),
    cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
    cpuMsPerRequest: round(median(cpuMs), 3),
    maxRssMiB: median(runs.map((r) => r.maxRssMiB)),
    diskMiB: median(runs.map((r) => r.diskMiB)),
    entries: median(runs.map((r) => r.entries)),
    exits: [...new Set(runs.map((r) => r.exit))],
  };
}

/** One profiled Harvest crawl of a site, from dist/ (module paths kept), its profiles split by stage. */
async function profiledCrawl(ctx, nginx, name, dir, measured, leftovers) {
  const profDir = path.join(dir, 'profiles');
  fs.rmSync(profDir, { recursive: true, force: true });
  spreadFolders(dir);
  const archive = path.join(dir, 'archive');
  nginx.reset(name);
  const run = await runMeasured([process.execPath, '--cpu-prof', '--cpu-prof-dir', profDir, path.join(ctx.root, 'dist/electron/cli/harvest.js'), ...harvestArgs(nginx.origin(name), archive)], {
    dir,
    capSeconds: ctx.harvestCap,
  });
  const requests = nginx.requests(name);
  leftovers.push(archive);
  if (run.exit !== 0) return { error: `the profiled crawl exited ${run.exit} (see ${dir}/output.txt)` };
  // Shares from the profile, CPU per request from the unprofiled runs (the profiler costs CPU of its own).
  const table = stageTable(profDir, { cpuSeconds: measured.cpuSeconds, requests: measured.requests });
  if (!ctx.keepMirrors) leftovers.push(profDir);
  return { ...table, profiledRun: { wallSeconds: run.wallSeconds, cpuSeconds: run.cpuSeconds, requests } };
}

export async function realSitesBench(ctx) {
  const names = ctx.realSites;
  ensureDebianPackages(
    names.map((n) => REAL_SITES[n]),
    ctx.log,
    { extra: ['wget', ...(ctx.peers.includes('httrack') ? ['httrack'] : [])] },
  );
  const dir = path.join(ctx.out, 'scenario11');
  fs.mkdirSync(dir, { recursive: true });
  // A new file skips each inode its block group freed in the last minutes (see
  // settledFileCreation), so files deleted just before a run were charged to the crawler run next
  // (wget+WARC on the PostgreSQL manual: 1.70 ms a request so, 0.85 with nothing deleted). Hence: the
  // runs wait for deletions made before the bench, every copy is deleted once the scenario ends,
  // and each crawler's copy gets a block group of its own (spreadFolders), where the files a
  // crawler deletes itself (wget's link conversion deletes and remakes each page) cost only it.
  const { ms: createMs, waitedSeconds: settleSeconds, dirs: leftovers } = await settledFileCreation(dir, ctx.log);
  const nginx = await new Nginx(
    path.join(dir, 'nginx'),
    names.map((name, i) => ({ name, root: fs.realpathSync(REAL_SITES[name].dir), port: ctx.port + 210 + i })),
  ).start();
  const sites = {};
  try {
    for (const name of names) {
      const origin = nginx.origin(name);
      const siteDir = path.join(dir, name);
      // nginx and the page cache warmed before any crawler is timed.
      spawnSync('wget', ['-q', '-r', '-l', 'inf', '-np', '-P', path.join(siteDir, 'warm'), `${origin}/`]);
      leftovers.push(path.join(siteDir, 'warm'));
      const runs = {};
      const pathsFile = path.join(siteDir, 'harvest-paths.txt');
      for (let round_ = 1; round_ <= ctx.realRounds; round_++) {
        for (const [crawler, c] of Object.entries(crawlers(ctx, origin, path.join(siteDir, `round${round_}`), pathsFile))) {
          ctx.log(`scenario 11: ${name}, round ${round_}: ${crawler}`);
          spreadFolders(path.dirname(c.disk));
          fs.mkdirSync(c.disk, { recursive: true });
          nginx.reset(name);
          const run = await runMeasured(c.cmd, { dir: path.join(siteDir, `round${round_}`, `${crawler}-run`), capSeconds: crawler === 'harvest' ? ctx.harvestCap : ctx.cap });
          run.requests = nginx.requests(name);
          if (crawler === 'harvest' && round_ === 1) fs.writeFileSync(pathsFile, nginx.requestedPaths(name).join('\n'));
          run.diskMiB = fs.existsSync(c.disk) ? round(duBytes(c.disk) / 1048576, 1) : null;
          run.entries = entriesIn(c.disk);
          (runs[crawler] ??= []).push(run);
          if (!ctx.keepMirrors) leftovers.push(c.disk);
        }
      }
      const medians = Object.fromEntries(Object.entries(runs).map(([crawler, rs]) => [crawler, summary(rs, (r) => r.requests)]));
      const h = medians.harvest;
      const w = medians['wget-warc'];
      let stages = null;
      if (ctx.stageTable) {
        ctx.log(`scenario 11: ${name}: profiled Harvest crawl for the stage table`);
        stages = await profiledCrawl(ctx, nginx, name, path.join(siteDir, 'profiled'), h, leftovers);
      }
      sites[name] = {
        title: REAL_SITES[name].title,
        dir: REAL_SITES[name].dir,
        medians,
        runs,
        cpuRatio: round(h.cpuMsPerRequest / w.cpuMsPerRequest, 2),
        wallRatio: round(h.wallSeconds / w.wallSeconds, 2),
        floorCpuRatio: round(medians['archiving-floor'].cpuMsPerRequest / w.cpuMsPerRequest, 2),
        nodeFloorCpuRatio: round(medians['node-floor'].cpuMsPerRequest / w.cpuMsPerRequest, 2),
        stages,
      };
    }
  } finally {
    await nginx.stop();
    for (const d of leftovers) fs.rmSync(d, { recursive: true, force: true });
  }
  return { rounds: ctx.realRounds, baseline: ctx.baseline, fileCreationMs: createMs, settleSeconds, cpuAim: CPU_AIM, cpuTargetSites: CPU_TARGET_SITES.filter((s) => names.includes(s)), sites };
}
