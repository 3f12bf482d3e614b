// The five scenarios of issue 5. Each takes the run context and returns a plain JSON result.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ACCEPT_ENCODINGS, harvestCommand, measureHarvest, measureRun, PEERS } from './crawlers.mjs';
import { eventTail, fetchPhase, progressGaps, readEvents } from './events.mjs';
import { memoryOf, round, sleep } from './measure.mjs';
import { onePageCrawl } from './onePage.mjs';
import { BenchServer, ensureSite } from './site.mjs';

const CEILING_CONNECTIONS = 8;
const CEILING_LATENCY_MS = 50;

async function withServer(ctx, pages, opts, fn) {
  const site = ensureSite(ctx.benchDir, ctx.sitesDir, pages, ctx.port, ctx.log);
  const server = await new BenchServer(ctx.benchDir, site, ctx.port, { ...opts, logFile: path.join(ctx.out, 'serve.log') }).ready();
  try {
    const warm = await server.warm(Object.values(ACCEPT_ENCODINGS));
    ctx.log(`server caches warmed: ${warm.urls} URLs × ${warm.acceptEncodings.length} encodings in ${warm.seconds} s`);
    return { ...(await fn(server, site)), serverWarmup: warm };
  } finally {
    await server.stop();
  }
}

/** Harvest, then each peer, on one server: the same site, server and run. */
async function harvestAndPeers(ctx, server, label) {
  const dir = path.join(ctx.out, label);
  const events = path.join(dir, 'harvest', 'events.jsonl');
  fs.mkdirSync(path.dirname(events), { recursive: true });
  const archive = path.join(dir, 'harvest', 'archive');
  ctx.log(`${label}: harvest`);
  const harvest = await measureHarvest(ctx, {
    cmd: harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive, '--events-jsonl', events], { connections: CEILING_CONNECTIONS }),
    outDir: path.join(dir, 'harvest'),
    archive,
    server,
  });
  const evs = readEvents(events);
  const phase = fetchPhase(evs);
  harvest.fetchPhaseSeconds = phase ? round(phase.seconds, 1) : null;
  harvest.fetchPhaseRequestsPerSec = phase && harvest.requests ? round(harvest.requests / phase.seconds, 1) : null;
  if (!ctx.keepMirrors) fs.rmSync(archive, { recursive: true, force: true });
  const peers = [];
  for (const name of ctx.peers) {
    ctx.log(`${label}: ${name}`);
    const out = path.join(dir, name, 'mirror');
    fs.mkdirSync(out, { recursive: true });
    peers.push(
      await measureRun({ name, cmd: PEERS[name](server.origin, out), outDir: path.join(dir, name), mirrorDir: out, diskDir: out, server, capSeconds: ctx.cap, benchDir: ctx.benchDir, keepMirrors: ctx.keepMirrors }),
    );
  }
  return { harvest, peers, events: evs };
}

function rawLimit(ctx, site) {
  const json = path.join(ctx.out, 'raw-limit.json');
  ctx.log('scenario 1: raw fetch limit (raw-limit.mjs, concurrency 8 and 64)');
  const r = spawnSync(process.execPath, [path.join(ctx.benchDir, 'raw-limit.mjs'), '--site', site.dir, '--seconds', '10', '--concurrency', '8,64', '--check-latency', String(CEILING_LATENCY_MS), '--check-seconds', '5', '--json', json], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0 || !fs.existsSync(json)) return { error: `raw-limit.mjs exited ${r.status}` };
  const raw = JSON.parse(fs.readFileSync(json, 'utf8'));
  return {
    latency0: raw.latency0,
    firstPass: raw.firstPass,
    latencyCheck: raw.latencyCheck,
    bestReqPerSec: Math.max(...raw.latency0.map((x) => x.reqPerSec)),
  };
}

/**
 * bench/floor.mjs on the scenario's server: what fetching, decoding, tokenising and writing alone
 * cost; with `archive`, that and the archive work done with Harvest's own modules.
 */
function floor(ctx, server, site, archive = false) {
  const out = path.join(ctx.out, 'floor');
  ctx.log(`scenario 1: ${archive ? 'archiving floor (bench/floor.mjs --archive)' : 'floor (bench/floor.mjs)'}`);
  const args = [path.join(ctx.root, 'bench', 'floor.mjs'), '--origin', server.origin, '--manifest', site.manifestFile, '--out', out, '--accept-encoding', ACCEPT_ENCODINGS.harvest, ...(archive ? ['--archive'] : [])];
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    timeout: ctx.cap * 1000,
  });
  fs.rmSync(out, { recursive: true, force: true });
  if (r.status !== 0) return { error: r.status === null ? `floor.mjs stopped by ${r.signal} after ${ctx.cap} s` : `floor.mjs exited ${r.status}: ${r.stderr.trim()}` };
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

/** 1 (and 5): CPU efficiency on the 5,000-page site without latency, compressed; progress gaps from its events. */
export async function scenario1(ctx) {
  return withServer(ctx, ctx.pages, { compress: true }, async (server, site) => {
    const raw = ctx.rawLimit ? rawLimit(ctx, site) : null;
    const nodeFloor = floor(ctx, server, site);
    const archivingFloor = floor(ctx, server, site, true);
    const { harvest, peers, events } = await harvestAndPeers(ctx, server, 'scenario1');
    return { pages: site.pageCount, assets: site.assetCount, latencyMs: 0, compress: true, rawLimit: raw, floor: nodeFloor, archivingFloor, harvest, peers, responsiveness: progressGaps(events) };
  });
}

/** 2: 50 ms per response and 8 connections: how close to connections / latency = 160 requests/s. */
export async function scenario2(ctx) {
  return withServer(ctx, ctx.pages, { compress: true, latencyMs: CEILING_LATENCY_MS }, async (server, site) => {
    const { harvest, peers } = await harvestAndPeers(ctx, server, 'scenario2');
    const ceiling = CEILING_CONNECTIONS / (CEILING_LATENCY_MS / 1000);
    return { pages: site.pageCount, latencyMs: CEILING_LATENCY_MS, connections: CEILING_CONNECTIONS, ceilingReqPerSec: ceiling, harvest, peers };
  });
}

/** 3: time per page and peak RSS as the site grows; then a frontier of `queued` URLs, paused and resumed. */
export async function scenario3(ctx) {
  ctx.log('scenario 3: a one-page crawl');
  const onePage = await onePageCrawl(ctx, ctx.port + 300);
  const sizes = [];
  for (const pages of ctx.scale) {
    sizes.push(
      await withServer(ctx, pages, { compress: true }, async (server, site) => {
        ctx.log(`scenario 3: harvest on ${pages} pages`);
        const dir = path.join(ctx.out, `scenario3-${pages}`);
        const archive = path.join(dir, 'archive');
        const r = await measureHarvest(ctx, {
          cmd: harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive]),
          outDir: dir,
          archive,
          server,
          check: pages <= ctx.linkcheckMaxPages,
        });
        fs.rmSync(archive, { recursive: true, force: true });
        return { pages: site.pageCount, ...r, msPerPage: round((r.wallSeconds * 1000) / site.pageCount, 2) };
      }),
    );
  }
  const frontier = ctx.queued > 0 ? await withServer(ctx, ctx.scale[0], { compress: true }, (server) => queuedFrontier(ctx, server)) : null;
  return { onePage, sizes, frontier };
}

/** Spawns harvest directly (no `time`), so signals reach the crawler itself; samples its memory. */
function startHarvest(ctx, args, eventsFile, logFile) {
  const cmd = harvestCommand(ctx.root, [...args, '--events-jsonl', eventsFile]);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', log, log] });
  const startedMs = Date.now();
  const mem = { hwmKiB: 0, rssKiB: 0 };
  const timer = setInterval(() => {
    const m = memoryOf(child.pid);
    if (m) Object.assign(mem, { hwmKiB: Math.max(mem.hwmKiB, m.hwmKiB), rssKiB: m.rssKiB });
  }, 100);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearInterval(timer);
      fs.closeSync(log);
      resolve({ code, signal });
    }),
  );
  return { child, startedMs, mem, exited, tail: eventTail(eventsFile) };
}

/** Waits until `pred(event)` holds for an event of the run (or the run ends / times out). */
async function waitForEvent(run, pred, timeoutMs) {
  const until = Date.now() + timeoutMs;
  let done = false;
  run.exited.then(() => (done = true));
  while (Date.now() < until) {
    for (const e of run.tail()) if (pred(e)) return e;
    if (done) return null;
    await sleep(50);
  }
  return null;
}

const mib = (kib) => round(kib / 1024, 1);

/** One stage of the queued-frontier test: run until `runSeconds` after 'running', then SIGINT (pause). */
async function pausedStage(ctx, args, dir, name, runSeconds) {
  const events = path.join(dir, `${name}.events.jsonl`);
  const run = startHarvest(ctx, args, events, path.join(dir, `${name}.log`));
  const running = await waitForEvent(run, (e) => e.type === 'state' && e.state === 'running', ctx.harvestCap * 1000);
  const atRunningMiB = mib(run.mem.hwmKiB);
  let last = null;
  const until = Date.now() + runSeconds * 1000;
  while (running && Date.now() < until) {
    for (const e of run.tail()) if (e.type === 'progress') last = e;
    await sleep(100);
  }
  run.child.kill('SIGINT');
  const exit = await run.exited;
  for (const e of run.tail()) if (e.type === 'progress') last = e;
  return {
    exit: exit.code ?? exit.signal,
    secondsToRunning: running ? round((running.t - run.startedMs) / 1000, 2) : null,
    peakRssAtRunningMiB: atRunningMiB,
    peakRssMiB: mib(run.mem.hwmKiB),
    queuedAtPause: last?.counts.queued ?? null,
    doneAtPause: last ? last.counts.archived + last.counts.httpErrors + last.counts.failed + last.counts.redirects : null,
  };
}

async function queuedFrontier(ctx, server) {
  const dir = path.join(ctx.out, 'scenario3-frontier');
  fs.mkdirSync(dir, { recursive: true });
  const seeds = path.join(dir, 'seeds.txt');
  ctx.log(`scenario 3: seed list of ${ctx.queued} URLs`);
  const out = fs.createWriteStream(seeds);
  out.write(`# ${ctx.queued} URLs the site does not have (404s), to fill Harvest's frontier\n${server.origin}/\n`);
  for (let i = 0; i < ctx.queued; i++) if (!out.write(`${server.origin}/frontier/${i}.html\n`)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  const archive = path.join(dir, 'archive');
  ctx.log('scenario 3: crawl seeded with the list, paused (SIGINT) once running');
  const first = await pausedStage(ctx, ['crawl', '--seeds-file', seeds, '--out', archive], dir, 'crawl', 10);
  ctx.log('scenario 3: resume, paused again');
  const resumed = await pausedStage(ctx, ['resume', archive], dir, 'resume', 10);
  const disk = spawnSync('du', ['-sb', archive], { encoding: 'utf8' });
  fs.rmSync(archive, { recursive: true, force: true });
  fs.rmSync(seeds, { force: true });
  return { queuedUrls: ctx.queued, crawl: first, resume: resumed, catalogueMiB: disk.status === 0 ? round(Number(disk.stdout.split('\t')[0]) / 1048576, 1) : null };
}

/** The URLs an archive still has queued, from `harvest list --json`. */
function queuedUrls(ctx, archive) {
  const r = spawnSync(process.execPath, [path.join(ctx.root, 'dist/electron/bundle/harvest.js'), 'list', archive, '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`harvest list failed: ${r.stderr}`);
  const out = new Set();
  for (const line of r.stdout.split('\n')) {
    if (line === '') continue;
    const rec = JSON.parse(line);
    if (rec.state === 'queued') out.add(rec.url);
  }
  return out;
}

/** 4: kill -9 at about half, resume; time to the first new request the server sees, and re-fetched URLs. */
export async function scenario4(ctx) {
  return withServer(ctx, ctx.resumePages, { compress: true }, async (server, site) => {
    const dir = path.join(ctx.out, 'scenario4');
    fs.mkdirSync(dir, { recursive: true });
    const archive = path.join(dir, 'archive');
    await server.reset();
    ctx.log(`scenario 4: crawl of ${site.pageCount} pages, kill -9 at half`);
    const first = startHarvest(ctx, ['crawl', `${server.origin}/`, '--out', archive], path.join(dir, 'crawl.events.jsonl'), path.join(dir, 'crawl.log'));
    let lastProgress = null;
    let stats = await server.stats();
    const deadline = Date.now() + ctx.harvestCap * 1000;
    while (stats.html200NonTrap < site.pageCount / 2 && Date.now() < deadline && first.child.exitCode === null) {
      await sleep(250);
      for (const e of first.tail()) if (e.type === 'progress') lastProgress = e;
      stats = await server.stats();
    }
    for (const e of first.tail()) if (e.type === 'progress') lastProgress = e;
    first.child.kill('SIGKILL');
    await first.exited;
    const before = await server.stats(true);
    const beforeUrls = new Set(Object.keys(before.perUrl ?? {}));
    // In flight at the kill: requested from the server but not committed (still queued) in the catalogue.
    const queued = queuedUrls(ctx, archive);
    const inFlight = [...beforeUrls].filter((u) => queued.has(`${server.origin}${u}`)).length;
    await server.reset();

    ctx.log('scenario 4: harvest resume');
    const resumed = startHarvest(ctx, ['resume', archive], path.join(dir, 'resume.events.jsonl'), path.join(dir, 'resume.log'));
    let firstRequestMs = null;
    let firstPageRequestMs = null;
    while (firstPageRequestMs === null && resumed.child.exitCode === null && Date.now() - resumed.startedMs < 60_000) {
      const s = await server.stats();
      const now = Date.now() - resumed.startedMs;
      if (firstRequestMs === null && s.requests > 0) firstRequestMs = now;
      if (s.requests - s.robotsTxt > 0) firstPageRequestMs = now;
      else await sleep(10);
    }
    const firstUrlEvent = await waitForEvent(resumed, (e) => e.type === 'url' && e.state !== 'skipped', 60_000);
    let capTimer;
    const exit = await Promise.race([resumed.exited, new Promise((r) => (capTimer = setTimeout(() => r(null), ctx.harvestCap * 1000)))]);
    clearTimeout(capTimer);
    if (exit === null) {
      resumed.child.kill('SIGINT');
      await resumed.exited;
    }
    const after = await server.stats(true);
    const refetched = Object.keys(after.perUrl ?? {}).filter((u) => beforeUrls.has(u) && !u.endsWith('/robots.txt'));
    fs.rmSync(archive, { recursive: true, force: true });
    return {
      pages: site.pageCount,
      killedAt: { html200NonTrap: before.html200NonTrap, requests: before.requests, inFlight, inFlightLastProgressEvent: lastProgress?.counts.inFlight ?? null, peakRssMiB: mib(first.mem.hwmKiB) },
      resume: {
        finished: exit !== null && exit.code === 0,
        firstRequestSeconds: firstRequestMs === null ? null : round(firstRequestMs / 1000, 2),
        firstNewFetchSeconds: firstPageRequestMs === null ? null : round(firstPageRequestMs / 1000, 2),
        firstOutcomeSeconds: firstUrlEvent ? round((firstUrlEvent.t - resumed.startedMs) / 1000, 2) : null,
        requests: after.requests,
        peakRssMiB: mib(resumed.mem.hwmKiB),
      },
      extraRequests: refetched.length,
      refetchedExamples: refetched.slice(0, 10),
      totalRequests: before.requests + after.requests,
    };
  });
}

/**
 * 10: what the second core buys. Scenario 1's site crawled by Harvest pinned with taskset to one core,
 * then to every core (the server unpinned both times): wall time, and time until the server saw the
 * site fetched (the CPU-bound part), each as a ratio of the one-core run to the all-cores run.
 */
export async function scenario10(ctx) {
  const cores = os.availableParallelism();
  return withServer(ctx, ctx.pages, { compress: true }, async (server) => {
    const runs = {};
    for (const [name, cpus] of [['oneCore', '0'], ['allCores', `0-${cores - 1}`]]) {
      ctx.log(`scenario 10: harvest on cores ${cpus}`);
      const archive = path.join(ctx.out, `scenario10-${name}`, 'archive');
      const cmd = harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive], { connections: CEILING_CONNECTIONS });
      runs[name] = await measureHarvest(ctx, {
        name: `harvest (cores ${cpus})`,
        cmd: ['taskset', '-c', cpus, ...cmd],
        outDir: path.join(ctx.out, `scenario10-${name}`),
        archive,
        server,
        check: false,
      });
      fs.rmSync(archive, { recursive: true, force: true });
    }
    const speedup = (k) => (runs.oneCore[k] && runs.allCores[k] ? round(runs.oneCore[k] / runs.allCores[k], 2) : null);
    return { cores, ...runs, wallSpeedup: speedup('wallSeconds'), fetchSpeedup: speedup('siteDoneSeconds'), aim: 1.6 };
  });
}
