#!/usr/bin/env node
// raw-limit.mjs — the physical limit on this machine: how many GET requests/s a tight keep-alive client (undici,
// installed in this folder) can fetch from serve.mjs, at concurrency 8 and 64, and the theoretical ceiling when
// every response is delayed by --latency-ms (C / latency). It starts its own serve.mjs on 127.0.0.1 (and stops it).
//
//   node raw-limit.mjs --site SITE [--port 8799] [--seconds 10] [--concurrency 8,64] [--check-latency 50] [--json OUT]
//
// The client and the server share the machine's cores, exactly as a crawler and serve.mjs do in run-peers.sh.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(HERE, 'package.json'));
let undici;
try { undici = require('undici'); } catch { console.error(`raw-limit: undici not found (npm install in the project)`); process.exit(2); }
const { Pool } = undici;

const opt = { site: path.join(os.tmpdir(), 'crawler-bench', 'site-5000'), port: 8799, seconds: 10, conc: [8, 64], checkLatency: 50, checkSeconds: 5, json: null };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const next = () => a[++i];
    if (a[i] === '--site') opt.site = next();
    else if (a[i] === '--port') opt.port = parseInt(next(), 10);
    else if (a[i] === '--seconds') opt.seconds = parseFloat(next());
    else if (a[i] === '--concurrency') opt.conc = next().split(',').map(Number);
    else if (a[i] === '--check-latency') opt.checkLatency = parseFloat(next());
    else if (a[i] === '--check-seconds') opt.checkSeconds = parseFloat(next());
    else if (a[i] === '--json') opt.json = next();
    else if (a[i] === '-h' || a[i] === '--help') { console.log('raw-limit.mjs --site SITE [--port 8799] [--seconds 10] [--concurrency 8,64] [--check-latency 50] [--check-seconds 5] [--json OUT]'); process.exit(0); }
    else { console.error(`raw-limit: unknown argument ${a[i]}`); process.exit(2); }
  }
}
const manifest = JSON.parse(fs.readFileSync(path.join(opt.site, 'manifest.json'), 'utf8'));
const urls = [...manifest.pages.map((p) => p.url), ...manifest.assets.map((a) => a.url)];
const htmlCount = manifest.pages.length;

async function startServer(latency) {
  const child = spawn(process.execPath, [path.join(HERE, 'serve.mjs'), '--dir', opt.site, '--port', String(opt.port), '--latency-ms', String(latency), '--quiet'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const origin = `http://127.0.0.1:${opt.port}`;
  for (let i = 0; i < 100; i++) {
    try { const r = await fetch(`${origin}/__stats`); if (r.ok) { await r.text(); return { child, origin }; } } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('serve.mjs did not start');
}
async function stopServer(s) { s.child.kill('SIGTERM'); await new Promise((r) => s.child.once('exit', r)); }

async function load(origin, C, seconds) {
  const pool = new Pool(origin, { connections: C, pipelining: 1, keepAliveTimeout: 30000 });
  let idx = 0, done = 0, bytes = 0, errors = 0, measuring = false;
  const lat = [];
  const warmup = Math.min(1, seconds / 5);
  const tStart = performance.now();
  const tMeasure = tStart + warmup * 1000, tEnd = tMeasure + seconds * 1000;
  async function worker() {
    while (performance.now() < tEnd) {
      const u = urls[idx++ % urls.length];
      const t0 = performance.now();
      try {
        const { statusCode, body } = await pool.request({ path: u, method: 'GET' });
        let n = 0; for await (const chunk of body) n += chunk.length;
        if (statusCode !== 200) errors++;
        const t1 = performance.now();
        if (t0 >= tMeasure && t1 <= tEnd) { done++; bytes += n; lat.push(t1 - t0); }
      } catch { errors++; }
    }
  }
  await Promise.all(Array.from({ length: C }, worker));
  await pool.close();
  lat.sort((a, b) => a - b);
  const q = (p) => (lat.length ? Math.round(lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] * 100) / 100 : null);
  return { concurrency: C, seconds, requests: done, reqPerSec: Math.round(done / seconds), mibPerSec: Math.round(bytes / seconds / 1048576 * 10) / 10, p50ms: q(0.5), p99ms: q(0.99), errors };
}

async function firstPass(origin, C) { // every URL once (cold server cache), like a crawler's single pass
  const pool = new Pool(origin, { connections: C, pipelining: 1, keepAliveTimeout: 30000 });
  let idx = 0, errors = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    while (idx < urls.length) {
      const u = urls[idx++];
      try { const { statusCode, body } = await pool.request({ path: u, method: 'GET' }); for await (const _ of body) { /* drain */ } if (statusCode !== 200) errors++; } catch { errors++; }
    }
  }));
  await pool.close();
  const s = (performance.now() - t0) / 1000;
  return { concurrency: C, requests: urls.length, seconds: Math.round(s * 100) / 100, reqPerSec: Math.round(urls.length / s), errors };
}

const out = { loadavgBefore: os.loadavg().map((x) => Math.round(x * 100) / 100), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, site: { dir: opt.site, pages: htmlCount, assets: urls.length - htmlCount }, latency0: [], latencyCheck: [] };
console.log(`raw-limit: ${urls.length} URLs (${htmlCount} pages) from ${opt.site}, ${out.machine.cpus} CPUs, serve.mjs on 127.0.0.1:${opt.port}`);
let srv = await startServer(0);
try {
  out.firstPass = await firstPass(srv.origin, Math.max(...opt.conc));
  console.log(`  first pass over all ${urls.length} URLs (cold server cache), concurrency ${out.firstPass.concurrency}: ${out.firstPass.reqPerSec} req/s, errors ${out.firstPass.errors}`);
  for (const C of opt.conc) {
    const r = await load(srv.origin, C, opt.seconds);
    out.latency0.push(r);
    console.log(`  latency 0 ms, concurrency ${C}: ${r.reqPerSec} req/s, ${r.mibPerSec} MiB/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, errors ${r.errors}`);
  }
} finally { await stopServer(srv); }
const best = Math.max(...out.latency0.map((r) => r.reqPerSec));
out.ceilings = opt.conc.map((C) => ({ concurrency: C, latencyMs: opt.checkLatency, theoreticalReqPerSec: Math.round(C / (opt.checkLatency / 1000)), boundedByLatency0: Math.min(best, Math.round(C / (opt.checkLatency / 1000))) }));
for (const c of out.ceilings) console.log(`  ceiling at ${c.latencyMs} ms latency, concurrency ${c.concurrency}: C/latency = ${c.theoreticalReqPerSec} req/s (min with measured latency-0 limit: ${c.boundedByLatency0})`);
if (opt.checkLatency > 0 && opt.checkSeconds > 0) {
  srv = await startServer(opt.checkLatency);
  try {
    await firstPass(srv.origin, 256); // warm the server's cache first
    for (const C of opt.conc) {
      const r = await load(srv.origin, C, opt.checkSeconds);
      out.latencyCheck.push({ ...r, latencyMs: opt.checkLatency });
      console.log(`  measured at ${opt.checkLatency} ms latency, concurrency ${C}: ${r.reqPerSec} req/s (p50 ${r.p50ms} ms)`);
    }
  } finally { await stopServer(srv); }
}
out.loadavgAfter = os.loadavg().map((x) => Math.round(x * 100) / 100);
console.log(`  load average before ${out.loadavgBefore.join(' ')}, after ${out.loadavgAfter.join(' ')} (anything else running on the machine lowers these figures)`);
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(out, null, 1));
