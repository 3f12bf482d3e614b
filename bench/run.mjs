#!/usr/bin/env node
// npm run bench: Harvest beside GNU wget and HTTrack on bench/harness's site, server and checks, in one run.
// Scenarios (issue 5): 1 CPU efficiency, 2 latency ceiling, 3 scale and a million-URL frontier, 4 resume
// after kill -9, 5 progress-event gaps (measured during 1). `node bench/run.mjs --help` lists the options.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureTools, PEERS } from './lib/crawlers.mjs';
import { comparison, markdown } from './lib/report.mjs';
import { docSiteBench } from './lib/docSite.mjs';
import { manySitesBench } from './lib/manySites.mjs';
import { realSitesBench, REAL_SITES } from './lib/realSites.mjs';
import { scenario1, scenario10, scenario2, scenario3, scenario4 } from './lib/scenarios.mjs';
import { renderBench } from './render.mjs';
import { searchBench } from './search.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const HELP = `usage: node bench/run.mjs [options]   (npm run bench -- [options])
  --scenarios 1,...,10      which scenarios (5 is measured during 1; 6 is search: query p50/p95 on synthetic
                            indexes of 5,000 and 100,000 pages, bench/search.mjs; 7 is rendered capture
                            against a static crawl, bench/render.mjs; 8 is ten 200-page sites at once on
                            ports --port+100 to +109; 9 is Debian's Python and PostgreSQL manuals served by
                            nginx on --port+200, Harvest against wget -m -k -E -p; 10 is scenario 1's crawl
                            pinned to one core, then to every core; 11 is real documentation sites (Debian's
                            PostgreSQL, Apache and Python manuals) each on its own nginx server on --port+210...,
                            Harvest against wget+WARC in alternating runs, and the CPU per request split by stage) [all]
  --pages N                 site size for scenarios 1 and 2 [5000]
  --scale A,B,C             site sizes for scenario 3 [1000,10000,100000]
  --queued N                URLs in scenario 3's frontier, 0 to skip [1000000]
  --resume-pages N          site size for scenario 4 [the largest --scale]
  --peers a,b | --no-peers  peers in scenarios 1 and 2 (${Object.keys(PEERS).join(', ')}) [all]
  --real-sites a,b          scenario 11's sites (postgresql, apache, python) [all three]
  --real-rounds N           scenario 11's alternating runs of each crawler per site [3]
  --baseline FILE           scenario 11 also runs this harvest.js (an earlier build) in its alternation
  --no-stage-table          scenario 11 without its profiled crawls
  --cap S                   seconds each peer may run [180]
  --harvest-cap S           seconds each Harvest crawl may run [3600]
  --render-site N           site size for scenario 7 [1000]
  --render-pages N          browser pages of scenario 7's --render crawl [2]
  --browser-path FILE       the browser of scenario 7 [Harvest's own search: $HARVEST_CHROMIUM, the usual places]
  --linkcheck-max N         check coverage and links of scenario 3 sites up to N pages [10000]
  --out DIR                 work folder [/tmp/harvest-bench/<timestamp>]
  --sites DIR               generated sites, reused between runs [/tmp/harvest-bench/sites]
  --port P                  port of the bench server [8765]
  --keep-mirrors            keep mirrors and archives in the work folder
  --compare FILE            an earlier results JSON to compare with
Results: bench/results/<timestamp>.json and .md, and the tables on stdout.`;

const { values: o } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '1,2,3,4,5,6,7,8,9,10,11' },
    pages: { type: 'string', default: '5000' },
    scale: { type: 'string', default: '1000,10000,100000' },
    queued: { type: 'string', default: '1000000' },
    'resume-pages': { type: 'string' },
    peers: { type: 'string', default: Object.keys(PEERS).join(',') },
    'no-peers': { type: 'boolean', default: false },
    cap: { type: 'string', default: '180' },
    'real-sites': { type: 'string', default: Object.keys(REAL_SITES).join(',') },
    'real-rounds': { type: 'string', default: '3' },
    baseline: { type: 'string' },
    'no-stage-table': { type: 'boolean', default: false },
    'harvest-cap': { type: 'string', default: '3600' },
    'render-site': { type: 'string', default: '1000' },
    'render-pages': { type: 'string', default: '2' },
    'browser-path': { type: 'string' },
    'linkcheck-max': { type: 'string', default: '10000' },
    out: { type: 'string' },
    sites: { type: 'string', default: '/tmp/harvest-bench/sites' },
    port: { type: 'string', default: '8765' },
    'keep-mirrors': { type: 'boolean', default: false },
    compare: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (o.help) {
  console.log(HELP);
  process.exit(0);
}

function fail(message) {
  console.error(`bench: ${message}\n${HELP}`);
  process.exit(2);
}
function positive(name, v) {
  if (!/^\d+$/.test(v)) fail(`--${name} needs a whole number, got '${v}'`);
  return Number(v);
}
const numbers = (name, v) => v.split(',').map((x) => positive(name, x.trim()));

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const wanted = new Set(o.scenarios.split(',').map((s) => s.trim()));
for (const s of wanted) if (!['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'].includes(s)) fail(`unknown scenario '${s}'`);
const peers = o['no-peers'] ? [] : o.peers.split(',').map((p) => p.trim()).filter(Boolean);
for (const p of peers) if (!PEERS[p]) fail(`unknown peer '${p}'`);
const scale = numbers('scale', o.scale);
const realSites = o['real-sites'].split(',').map((s) => s.trim()).filter(Boolean);
for (const s of realSites) if (!REAL_SITES[s]) fail(`unknown real site '${s}' (${Object.keys(REAL_SITES).join(', ')})`);
const ctx = {
  root: ROOT,
  benchDir: process.env.HARVEST_BENCH_DIR ?? path.join(ROOT, 'bench', 'harness'),
  sitesDir: path.resolve(o.sites),
  out: path.resolve(o.out ?? path.join('/tmp/harvest-bench', stamp)),
  port: positive('port', o.port),
  pages: positive('pages', o.pages),
  scale,
  queued: positive('queued', o.queued),
  resumePages: o['resume-pages'] ? positive('resume-pages', o['resume-pages']) : Math.max(...scale),
  peers,
  cap: positive('cap', o.cap),
  realSites,
  realRounds: positive('real-rounds', o['real-rounds']),
  baseline: o.baseline ? path.resolve(o.baseline) : null,
  stageTable: !o['no-stage-table'],
  harvestCap: positive('harvest-cap', o['harvest-cap']),
  renderSitePages: positive('render-site', o['render-site']),
  renderPages: positive('render-pages', o['render-pages']),
  browserPath: o['browser-path'] ? path.resolve(o['browser-path']) : null,
  linkcheckMaxPages: positive('linkcheck-max', o['linkcheck-max']),
  keepMirrors: o['keep-mirrors'],
  rawLimit: true,
  log: (m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`),
};
const earlier = o.compare ? JSON.parse(fs.readFileSync(o.compare, 'utf8')) : null;

/** What a clean clone lacks: the build, GNU time and the peers (raw-limit.mjs takes the project's own undici). */
function prepare() {
  if (!fs.existsSync(path.join(ROOT, 'dist/electron/bundle/harvest.js'))) {
    ctx.log('building Harvest (npm run build)');
    if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('npm run build failed');
  }
  ensureTools(peers, ctx.log);
  fs.mkdirSync(ctx.out, { recursive: true });
  fs.mkdirSync(ctx.sitesDir, { recursive: true });
}

function version(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout || r.stderr).split('\n')[0].trim() : null;
}

prepare();
const results = {
  date: new Date().toISOString(),
  argv: process.argv.slice(2).join(' ') || '(defaults)',
  machine: [`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`, `${Math.round(os.totalmem() / 2 ** 30)} GiB`, `Node ${process.version}`, ...peers.map((p) => version(p.startsWith('wget') ? 'wget' : 'httrack', ['--version'])).filter(Boolean)]
    .filter((x, i, a) => a.indexOf(x) === i)
    .join(', '),
  loadavgStart: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  options: { ...ctx, log: undefined },
  scenarios: {},
};
const resultsDir = path.join(HERE, 'results');
fs.mkdirSync(resultsDir, { recursive: true });

/** Written after every scenario, so a run cut short keeps what it measured. */
function save() {
  let md = markdown(results);
  if (earlier) md += '\n' + comparison(earlier, results);
  for (const dir of [resultsDir, ctx.out]) {
    fs.writeFileSync(path.join(dir, `${stamp}.json`), JSON.stringify(results, null, 1) + '\n');
    fs.writeFileSync(path.join(dir, `${stamp}.md`), md);
  }
  return md;
}

const plan = [
  ['1', scenario1, wanted.has('1') || wanted.has('5')],
  ['2', scenario2, wanted.has('2')],
  ['3', scenario3, wanted.has('3')],
  ['4', scenario4, wanted.has('4')],
  ['6', () => searchBench({ work: path.join(ctx.sitesDir, '..', 'search'), log: ctx.log }), wanted.has('6')],
  ['7', renderBench, wanted.has('7')],
  ['8', manySitesBench, wanted.has('8')],
  ['9', docSiteBench, wanted.has('9')],
  ['10', scenario10, wanted.has('10')],
  ['11', realSitesBench, wanted.has('11')],
];
ctx.log(`work folder ${ctx.out}`);
for (const [name, run, on] of plan) {
  if (!on) continue;
  const started = Date.now();
  try {
    results.scenarios[name] = await run(ctx);
  } catch (e) {
    ctx.log(`scenario ${name} failed: ${e.stack ?? e}`);
    results.scenarios[`${name}-error`] = String(e.message ?? e);
  }
  ctx.log(`scenario ${name} took ${Math.round((Date.now() - started) / 1000)} s`);
  save();
}
console.log(save());
ctx.log(`results: ${path.join(resultsDir, `${stamp}.json`)} and .md`);
