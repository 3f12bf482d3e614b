#!/usr/bin/env node
// UI responsiveness during a full-speed crawl: starts `harvest serve`, the 5,000-page bench site
// (no latency, compression) and a job with bench settings (8 connections, no delay), then sends
// app.ping over the HTTP API every 20 ms while the crawl runs and prints round-trip percentiles.
// Usage: npm run bench:ipc [-- --pages N] [-- --max-seconds S]   (needs `npm run build` first)
// With --max-seconds the crawl is paused after S seconds and the figures cover that part of it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = process.env.HARVEST_BENCH_DIR ?? path.join(ROOT, 'bench', 'harness');
const CLI = path.join(ROOT, 'dist', 'electron', 'bundle', 'harvest.js');
const PING_EVERY_MS = 20;

const { values } = parseArgs({ options: { pages: { type: 'string', default: '5000' }, 'max-seconds': { type: 'string' } } });
const pages = Number(values.pages);
const maxSeconds = values['max-seconds'] === undefined ? Infinity : Number(values['max-seconds']);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function waitForOutput(child, re) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d.toString();
      const m = re.exec(buf);
      if (m) {
        child.stdout.off('data', onData);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${child.spawnargs.join(' ')} exited with ${code}: ${buf}`)));
  });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const work = mkdtempSync(path.join(tmpdir(), 'harvest-ipc-bench-'));
const children = [];
try {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const siteDir = path.join(work, 'site');
  const gen = spawnSync(process.execPath, [path.join(BENCH, 'sitegen.mjs'), '--pages', String(pages), '--out', siteDir, '--origin', origin, '--force'], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`sitegen failed: ${gen.stderr}`);
  const site = spawn(process.execPath, [path.join(BENCH, 'serve.mjs'), '--dir', siteDir, '--port', String(port), '--compress'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(site);
  await waitForOutput(site, /serve: http:\/\//);

  const serve = spawn(process.execPath, [CLI, 'serve', '--data-dir', path.join(work, 'data')], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(serve);
  const [, appUrl] = await waitForOutput(serve, /open (http:\/\/\S+\/)/);

  const call = async (command, args = {}) => {
    const res = await fetch(`${appUrl}api/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
    const reply = await res.json();
    if (!reply.ok) throw new Error(`${command}: ${reply.error.message}`);
    return reply.value;
  };

  const job = await call('jobs.create', { job: { name: 'IPC bench', seeds: [`${origin}/`], politeness: { perHostConnections: 8, delayMs: 0 } } });
  const rtts = [];
  let crawling = true;
  const pinger = (async () => {
    while (crawling) {
      const t0 = performance.now();
      await call('app.ping', { sentAtMs: Date.now() });
      rtts.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, PING_EVERY_MS));
    }
  })();
  const started = performance.now();
  await call('jobs.start', { id: job.id });
  let status = 'running';
  let lastReport = performance.now();
  let paused = false;
  while (status === 'running' || status === 'pausing') {
    await new Promise((r) => setTimeout(r, 250));
    const summary = (await call('jobs.list')).find((j) => j.id === job.id);
    status = summary.status;
    const elapsedS = (performance.now() - started) / 1000;
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      console.error(`  ${elapsedS.toFixed(0)} s: ${summary.counts?.archived ?? 0} archived, ${rtts.length} pings`);
    }
    if (!paused && elapsedS > maxSeconds && status === 'running') {
      paused = true;
      await call('jobs.pause', { id: job.id });
    }
  }
  const crawlS = (performance.now() - started) / 1000;
  crawling = false;
  await pinger;
  const stats = await call('jobs.stats', { id: job.id });
  const sorted = [...rtts].sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log(`crawl of the ${pages}-page site: ${status}, ${stats.counts.archived} URLs archived in ${crawlS.toFixed(1)} s (engine time ${(stats.durationMs / 1000).toFixed(1)} s)`);
  console.log(`app.ping round trip over HTTP during the crawl (${sorted.length} pings): p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1])}`);
} finally {
  for (const c of children.reverse()) await stop(c);
  rmSync(work, { recursive: true, force: true });
}
