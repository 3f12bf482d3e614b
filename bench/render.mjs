#!/usr/bin/env node
/**
 * Rendered capture's cost: `harvest crawl --render` against a static crawl of the same bench site
 * (1,000 pages by default) on one warmed server. Pages/s (HTML pages archived / wall time), peak RSS
 * of the whole process tree (Chromium's processes included), CPU, and the share of the static rate
 * the renderer keeps, against the aim of a third. Run alone (`npm run bench:render -- [options]`) or
 * as `npm run bench -- --scenarios 7`.
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
/** The renderer should keep at least this share of the static crawl's pages/s. */
export const RENDER_AIM = 1 / 3;
/** Chromium's processes come and go with pages: sampled more often than a crawler alone. */
const SAMPLE_MS = 250;

/** HTML pages archived and, of those, pages with a thumbnail (rendered), from `harvest list --json`. */
function pagesOf(archive) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/electron/bundle/harvest.js'), 'list', archive, '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`harvest list failed: ${r.stderr}`);
  let html = 0;
  let rendered = 0;
  for (const line of r.stdout.split('\n')) {
    if (line === '') continue;
    const rec = JSON.parse(line);
    if (rec.state !== 'archived' || !/^text\/html/.test(rec.contentType ?? '')) continue;
    html++;
    if (rec.thumbnail) rendered++;
  }
  return { html, rendered };
}

async function crawl(ctx, server, name, extra) {
  const dir = path.join(ctx.out, 'render', name);
  const archive = path.join(dir, 'archive');
  fs.rmSync(dir, { recursive: true, force: true });
  ctx.log(`render bench: ${name} crawl`);
  await server.reset();
  const run = await runMeasured(harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive, ...extra]), { dir, capSeconds: ctx.harvestCap, sampleMs: SAMPLE_MS });
  const pages = pagesOf(archive);
  if (!ctx.keepMirrors) fs.rmSync(archive, { recursive: true, force: true });
  return {
    ...run,
    ended: run.capped ? 'cap' : run.exit === 0 ? 'finished' : `exit ${run.exit}`,
    htmlPages: pages.html,
    renderedPages: pages.rendered,
    pagesPerSec: round(pages.html / run.wallSeconds, 2),
    cpuMsPerPage: run.cpuSeconds == null ? null : round((run.cpuSeconds * 1000) / pages.html, 1),
  };
}

/** Both crawls of one site on one server, with the bench's settings (harvestCommand); `ctx` as bench/run.mjs makes it. */
export async function renderBench(ctx) {
  const site = ensureSite(ctx.benchDir, ctx.sitesDir, ctx.renderSitePages, ctx.port, ctx.log);
  const server = await new BenchServer(ctx.benchDir, site, ctx.port, { compress: true, logFile: path.join(ctx.out, 'serve.log') }).ready();
  try {
    await server.warm(['gzip, deflate, br']);
    const staticRun = await crawl(ctx, server, 'static', []);
    const render = await crawl(ctx, server, 'render', ['--render', '--render-pages', String(ctx.renderPages), ...(ctx.browserPath ? ['--browser-path', ctx.browserPath] : [])]);
    const share = round(render.pagesPerSec / staticRun.pagesPerSec, 3);
    return { pages: site.pageCount, renderPages: ctx.renderPages, static: staticRun, render, share, aim: round(RENDER_AIM, 3), met: share >= RENDER_AIM };
  } finally {
    await server.stop();
  }
}

/** The figures as lines of text, each with what it is. */
export function renderSummary(r) {
  const line = (name, x) => `${name}: ${x.htmlPages} HTML pages in ${x.wallSeconds} s = ${x.pagesPerSec} pages/s (${x.ended}); peak RSS ${x.treeRssMiB} MiB summed over the process tree (largest process ${x.maxRssMiB} MiB); CPU ${x.cpuSeconds} s = ${x.cpuMsPerPage} ms per page`;
  return [
    line('static', r.static),
    line(`render (${r.renderPages} browser pages)`, r.render) + `; ${r.render.renderedPages} pages rendered`,
    `share of the static rate kept: ${round(r.share * 100, 1)}% (aim ≥ ${round(r.aim * 100, 1)}%): ${r.met ? 'met' : 'missed'}`,
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: o } = parseArgs({
    options: {
      pages: { type: 'string', default: '1000' },
      'render-pages': { type: 'string', default: '2' },
      'browser-path': { type: 'string' },
      port: { type: 'string', default: '8765' },
      cap: { type: 'string', default: '3600' },
      out: { type: 'string', default: '/tmp/harvest-bench/render' },
      sites: { type: 'string', default: '/tmp/harvest-bench/sites' },
      'keep-mirrors': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const ctx = {
    root: ROOT,
    benchDir: process.env.HARVEST_BENCH_DIR ?? path.join(ROOT, 'bench', 'harness'),
    sitesDir: path.resolve(o.sites),
    out: path.resolve(o.out),
    port: Number(o.port),
    renderSitePages: Number(o.pages),
    renderPages: Number(o['render-pages']),
    browserPath: o['browser-path'] ?? null,
    harvestCap: Number(o.cap),
    keepMirrors: o['keep-mirrors'],
    log: (m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`),
  };
  fs.mkdirSync(ctx.out, { recursive: true });
  fs.mkdirSync(ctx.sitesDir, { recursive: true });
  const result = await renderBench(ctx);
  fs.writeFileSync(path.join(ctx.out, 'render.json'), JSON.stringify(result, null, 1) + '\n');
  for (const l of renderSummary(result)) console.log(l);
}
