// Cluster throughput with 1, 2 and 3 workers on a latency-bound multi-site loopback server:
// node bench/cluster.mjs [--sites 12] [--pages 60] [--latency 50] [--per-worker-sites 2]
// Needs `npm run build` and Debian's PostgreSQL (/usr/lib/postgresql/15/bin).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startMultiSite } from '../dist/test/helpers/multiSite.js';
import { startPostgres } from '../dist/test/helpers/throwawayPostgres.js';

const CLI = new URL('../dist/electron/bundle/harvest.js', import.meta.url).pathname;
const { values } = parseArgs({ options: { sites: { type: 'string', default: '12' }, pages: { type: 'string', default: '60' }, latency: { type: 'string', default: '50' }, 'per-worker-sites': { type: 'string', default: '2' } } });
const run = (args) => new Promise((resolve) => spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'inherit'] }).once('close', resolve));
const postgres = await startPostgres();
const site = await startMultiSite({ sites: Number(values.sites), pages: Number(values.pages), latencyMs: Number(values.latency) });
const work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-bench-'));
const rows = [];
try {
  for (const n of [1, 2, 3]) {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query(`CREATE DATABASE b${n}`);
    await client.end();
    const db = postgres.url.replace(/\/harvest$/, `/b${n}`);
    await run(['cluster', 'init', '--db', db, '--name', `b${n}`, '--delay-ms', '0', '--connections', '1', ...site.origins.map((o) => `${o}/`)]);
    const since = Date.now();
    const codes = await Promise.all(
      Array.from({ length: n }, (_, i) => run(['worker', '--db', db, '--store', path.join(work, `s${n}`), '--id', `w${i}`, '--quiet', '--sites', values['per-worker-sites'], '--local-address', `127.0.0.${21 + i}`])),
    );
    const served = site.served.filter((s) => s.startMs >= since);
    const first = Math.min(...served.map((s) => s.startMs));
    const last = Math.max(...served.map((s) => s.endMs));
    rows.push({ workers: n, exit: codes.join(','), requests: served.length, seconds: (last - first) / 1000, perSecond: served.length / ((last - first) / 1000) });
  }
  const base = rows[0].perSecond;
  for (const r of rows) console.log(`${r.workers} worker(s): ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${r.perSecond.toFixed(1)} req/s (${(r.perSecond / base).toFixed(2)}x), exit ${r.exit}`);
} finally {
  await site.stop();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
