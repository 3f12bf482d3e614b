#!/usr/bin/env node
/**
 * Page analysis's speed: a static crawl of the bench site (1,000 pages by default), then `harvest qa`
 * over it, measured: pages analysed per minute (wall time), peak RSS of the whole process tree
 * (Chromium's processes included), CPU, and how the pages scored (every page of a static crawl of
 * this site should match: text >= 0.95, screenshot >= 0.9, nothing missing). `--limit N` analyses a
 * sample; `--copies mirror,replay` (the default) picks the copies compared: the offline copy, the
 * WACZ replay in ReplayWeb.page, or both. Run as `npm run bench:qa -- [options]`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { harvestCommand } from './lib/crawlers.mjs';
import { round, runMeasured } from './lib/measure.mjs';
import { BenchServer, ensureSite } from './lib/site.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Chromium's processes come and go with pages: sampled more often than a crawler alone. */
const SAMPLE_MS = 250;
/** The aim: 1,000 pages analysed in under ten minutes. */
const AIM_PAGES_PER_MIN = 100;

/** Every analysed page's figures, read back with a second `harvest qa --json` (it analyses nothing more: the first run's results are kept). */
function resultsOf(archive, limit, browserPath, copies) {
  const args = ['qa', archive, '--json', '--quiet', '--copies', copies, ...(limit ? ['--limit', String(limit)] : []), ...(browserPath ? ['--browser-path', browserPath] : [])];
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/electron/bundle/harvest.js'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.stdout.trim() === '') throw new Error(`harvest qa printed nothing: ${r.stderr}`);
  return JSON.parse(r.stdout).pages;
}

export async function qaBench(ctx) {
  const site = ensureSite(ctx.benchDir, ctx.sitesDir, ctx.sitePages, ctx.port, ctx.log);
  const server = await new BenchServer(ctx.benchDir, site, ctx.port, { compress: true, logFile: path.join(ctx.out, 'serve.log') }).ready();
  const archive = path.join(ctx.out, 'archive');
  fs.rmSync(archive, { recursive: true, force: true });
  try {
    await server.warm(['gzip, deflate, br']);
    ctx.log('qa bench: static crawl');
    const crawl = await runMeasured(harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive]), { dir: path.join(ctx.out, 'crawl'), capSeconds: ctx.cap });
    if (crawl.exit !== 0) throw new Error(`the crawl ended with exit ${crawl.exit}`);
    ctx.log('qa bench: analysis');
    const browser = ctx.browserPath ? ['--browser-path', ctx.browserPath] : [];
    const limit = ctx.limit ? ['--limit', String(ctx.limit)] : [];
    const run = await runMeasured(harvestCommand(ctx.root, ['qa', archive, '--copies', ctx.copies, ...limit, ...browser]), { dir: path.join(ctx.out, 'qa'), capSeconds: ctx.cap, sampleMs: SAMPLE_MS });
    const pages = resultsOf(archive, ctx.limit, ctx.browserPath, ctx.copies);
    const compared = pages.filter((p) => p.error === null);
    const min = (k) => (compared.length === 0 ? null : round(Math.min(...compared.map((p) => p[k])), 4));
    const perCopy = Object.fromEntries(
      ctx.copies.split(',').map((c) => {
        const all = compared.map((p) => p.copies[c]).filter(Boolean);
        // A replay that left by script is not compared (see README: skipped).
        const figures = all.filter((f) => f.skipped === undefined && f.error === null);
        const low = (k) => (figures.length === 0 ? null : round(Math.min(...figures.map((f) => f[k])), 4));
        return [c, { minTextMatch: low('textMatch'), minScreenshotMatch: low('screenshotMatch'), withMissing: figures.filter((f) => f.missing.length > 0).length, skipped: all.length - figures.length }];
      }),
    );
    const pagesPerMin = round((pages.length / run.wallSeconds) * 60, 1);
    return {
      sitePages: site.pageCount,
      copies: ctx.copies,
      perCopy,
      analysed: pages.length,
      errors: pages.length - compared.length,
      ended: run.capped ? 'cap' : `exit ${run.exit}`,
      wallSeconds: run.wallSeconds,
      pagesPerMin,
      minutesPer1000: pagesPerMin > 0 ? round(1000 / pagesPerMin, 1) : null,
      treeRssMiB: run.treeRssMiB,
      maxRssMiB: run.maxRssMiB,
      cpuSeconds: run.cpuSeconds,
      cpuMsPerPage: run.cpuSeconds == null || pages.length === 0 ? null : round((run.cpuSeconds * 1000) / pages.length),
      minTextMatch: min('textMatch'),
      minScreenshotMatch: min('screenshotMatch'),
      belowAim: compared.filter((p) => p.textMatch < 0.95 || p.screenshotMatch < 0.9).length,
      withMissing: pages.filter((p) => p.missing.length > 0).length,
      aimPagesPerMin: AIM_PAGES_PER_MIN,
      loadavg: `${run.loadavgBefore} -> ${run.loadavgAfter}`,
    };
  } finally {
    await server.stop();
    if (!ctx.keepArchive) fs.rmSync(archive, { recursive: true, force: true });
  }
}

export function qaSummary(r) {
  return [
    `analysed ${r.analysed} of ${r.sitePages} pages in ${r.wallSeconds} s (${r.ended}) = ${r.pagesPerMin} pages/min, ${r.minutesPer1000} min per 1,000 pages (aim ${r.aimPagesPerMin} pages/min: ${r.pagesPerMin >= r.aimPagesPerMin ? 'met' : 'missed'})`,
    `peak RSS ${r.treeRssMiB} MiB summed over the process tree (largest process ${r.maxRssMiB} MiB); CPU ${r.cpuSeconds} s = ${r.cpuMsPerPage} ms per page; load ${r.loadavg}`,
    `scores (worst of ${r.copies}): lowest text ${r.minTextMatch}, lowest screenshot ${r.minScreenshotMatch}; ${r.belowAim} pages below 0.95 text / 0.9 screenshot, ${r.withMissing} with missing resources, ${r.errors} not compared`,
    ...Object.entries(r.perCopy).map(([c, f]) => `  ${c}: lowest text ${f.minTextMatch}, lowest screenshot ${f.minScreenshotMatch}, ${f.withMissing} pages with missing resources, ${f.skipped} left out (skipped or failed)`),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: o } = parseArgs({
    options: {
      pages: { type: 'string', default: '1000' },
      limit: { type: 'string' },
      'browser-path': { type: 'string' },
      copies: { type: 'string', default: 'mirror,replay' },
      port: { type: 'string', default: '8767' },
      cap: { type: 'string', default: '3600' },
      out: { type: 'string', default: '/tmp/harvest-bench/qa' },
      sites: { type: 'string', default: '/tmp/harvest-bench/sites' },
      'keep-archive': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const ctx = {
    root: ROOT,
    benchDir: process.env.HARVEST_BENCH_DIR ?? path.join(ROOT, 'bench', 'harness'),
    sitesDir: path.resolve(o.sites),
    out: path.resolve(o.out),
    port: Number(o.port),
    sitePages: Number(o.pages),
    limit: o.limit === undefined ? null : Number(o.limit),
    browserPath: o['browser-path'] ?? null,
    copies: o.copies,
    cap: Number(o.cap),
    keepArchive: o['keep-archive'],
    log: (m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`),
  };
  fs.mkdirSync(ctx.out, { recursive: true });
  fs.mkdirSync(ctx.sitesDir, { recursive: true });
  const result = await qaBench(ctx);
  fs.writeFileSync(path.join(ctx.out, 'qa.json'), JSON.stringify(result, null, 1) + '\n');
  for (const l of qaSummary(result)) console.log(l);
}
