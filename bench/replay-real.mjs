#!/usr/bin/env node
/**
 * Every capture of a re-crawled real site in ReplayWeb.page (`npm run bench:replay`; not in CI, it
 * takes a quarter of an hour or more). For the Python 3 manual and the Apache httpd manual (Debian's
 * python3-doc and apache2-doc), each copied to a temporary folder and served by nginx on 127.0.0.1:
 * crawl, change a few pages' text and remove a few pages, re-crawl, export WACZ of all captures,
 * `--capture 1` and `--capture 2`, and replay in ReplayWeb.page (headless Chromium) a sample of the
 * pages of every capture of every package plus every changed and removed page: the title and words
 * its file had at that capture, never the other capture's words, and every image loaded. Then
 * damaged copies of the all-captures WACZ must all fail `harvest verify --deep`.
 *
 *   npm run build && npm run bench:replay -- [--sites python,apache] [--sample 20] [--parallel 2] [--keep]
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../dist/test/helpers/benchSite.js';
import { CHROMIUM, launchChromium, startViewerServer } from '../dist/test/helpers/replayViewer.js';
import { editPages, expectedOf, fileOf, sendsOn } from './lib/docPages.mjs';
import { Nginx } from './lib/nginx.mjs';
import { checkReplay, fourteen, pagesOfWacz, spread } from './lib/replayCheck.mjs';
import { damagedCopies } from './lib/waczDamage.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CLI = path.join(ROOT, 'dist/electron/bundle/harvest.js');
const SITES = {
  python: { docs: '/usr/share/doc/python3-doc/html', package: 'python3-doc' },
  apache: { docs: '/usr/share/doc/apache2-doc/manual', package: 'apache2-doc' },
};

const { values: args } = parseArgs({
  options: {
    sites: { type: 'string', default: 'python,apache' },
    sample: { type: 'string', default: '20' },
    parallel: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});
const sample = Number(args.sample);
const parallel = Math.max(1, Number(args.parallel));

function harvest(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => (status === 0 ? resolve(out) : reject(new Error(`harvest ${argv.join(' ')} exited ${status}: ${out.slice(-500)}`))));
  });
}

const seconds = (t0) => Math.round((Date.now() - t0) / 100) / 10;
const log = (...a) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

async function archivedHtml(archive) {
  const out = await harvest(['list', archive, '--json']);
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? ''))
    .map((r) => r.url);
}

/** Crawls, edits, re-crawls and exports one site; returns what the replay checks need. */
async function harvestSite(name, work, nginxPrefix) {
  const docs = realpathSync(SITES[name].docs);
  const served = path.join(work, 'served');
  cpSync(docs, served, { recursive: true, dereference: true });
  const nginx = await new Nginx(nginxPrefix, [{ name, root: served, port: await freePort() }]).start();
  const origin = nginx.origin(name);
  const seed = `${origin}/`;
  const archive = path.join(work, 'archive');
  const timings = {};
  let edits;
  try {
    let t0 = Date.now();
    log(name, 'crawl', seed);
    await harvest(['crawl', seed, '--out', archive, '--delay-ms', '0', '--connections', '4', '--quiet']);
    timings.crawl = seconds(t0);
    const pages1 = await archivedHtml(archive);
    edits = editPages(served, pages1, [seed]);
    // WARC-Date has whole seconds: the captures must not share one.
    await new Promise((r) => setTimeout(r, 1100));
    t0 = Date.now();
    log(name, 'recrawl after', JSON.stringify(edits));
    await harvest(['recrawl', archive, '--quiet']);
    timings.recrawl = seconds(t0);
    timings.pages = pages1.length;
    writeFileSync(path.join(work, 'edits.json'), JSON.stringify(edits, null, 2));
  } finally {
    await nginx.stop();
  }
  const waczs = {};
  const t0 = Date.now();
  for (const [pkg, extra] of [['all', []], ['capture 1', ['--capture', '1']], ['capture 2', ['--capture', '2']]]) {
    waczs[pkg] = path.join(work, `${pkg.replace(' ', '')}.wacz`);
    await harvest(['export', archive, '--format', 'wacz', '--out', waczs[pkg], '--quiet', ...extra]);
  }
  timings.export = seconds(t0);
  return { docs, served, origin, edits, waczs, timings };
}

/** Replays the sample of each package; returns one row per package. */
async function replaySite(name, site, browser) {
  const byCapture = new Map();
  for (const n of [1, 2]) for (const p of await pagesOfWacz(site.waczs[`capture ${n}`])) byCapture.set(`${p.ts} ${p.url}`, n);
  const changed = new Map(site.edits.changed.map((c) => [c.url, c.words]));
  const removed = new Set(site.edits.removed.map((r) => r.url));
  const rows = [];
  for (const [pkg, file] of Object.entries(site.waczs)) {
    const pages = await pagesOfWacz(file);
    const failures = [];
    let passed = 0;
    const listed = new Set(pages.map((p) => `${byCapture.get(`${p.ts} ${p.url}`)} ${p.url}`));
    const picked = [];
    for (const n of [1, 2]) {
      const ofCapture = pages.filter((p) => byCapture.get(`${p.ts} ${p.url}`) === n);
      if (ofCapture.length === 0) continue;
      const special = ofCapture.filter((p) => changed.has(p.url) || removed.has(p.url));
      // A page that sends the browser on (the Apache manual's / to en/index.html) has no content of its own to check.
      const own = ofCapture.filter((p) => !special.includes(p) && !sendsOn(fileOf(n === 1 ? site.docs : site.served, p.url)));
      picked.push(...new Set([...spread(own, sample), ...special]));
      // A removed page is listed for capture 1 and not for capture 2; a changed one for both.
      for (const url of removed) if (listed.has(`${n} ${url}`) !== (n === 1)) failures.push(`capture ${n}: removed page ${url} ${n === 1 ? 'not listed' : 'listed'}`);
      for (const url of changed.keys()) if (!listed.has(`${n} ${url}`)) failures.push(`capture ${n}: changed page ${url} not listed`);
    }
    const viewer = await startViewerServer(file, picked[0].url);
    try {
      const check = async (p) => {
        const n = byCapture.get(`${p.ts} ${p.url}`);
        const expect = expectedOf(fileOf(n === 1 ? site.docs : site.served, p.url));
        if (changed.has(p.url) && n === 1) expect.absent = [changed.get(p.url)];
        const { problems } = await checkReplay(browser, viewer.origin, p.url, fourteen(p.ts), expect);
        if (problems.length === 0) passed++;
        else {
          failures.push(`capture ${n} ${p.url}: ${problems.join('; ')}`);
          log(name, pkg, 'failed:', failures.at(-1));
        }
      };
      // A few pages at once, each in a browser context of its own.
      for (let i = 0; i < picked.length; i += parallel) await Promise.all(picked.slice(i, i + parallel).map(check));
    } finally {
      viewer.server.close();
    }
    log(name, pkg, `${passed} passed, ${failures.length} failed`);
    rows.push({ site: name, package: pkg, pagesListed: pages.length, replayed: picked.length, passed, failed: failures.length, failures });
  }
  return rows;
}

const work = mkdtempSync(path.join(tmpdir(), 'harvest-replay-real-'));
// nginx's worker runs as another user when started by root: the copies must be readable to it.
chmodSync(work, 0o755);
const results = { when: new Date().toISOString(), sample, sites: {}, replay: [], verify: [] };
let browser = null;
try {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed`);
  for (const name of args.sites.split(',')) {
    if (!SITES[name]) throw new Error(`unknown site ${name} (python, apache)`);
    if (!existsSync(SITES[name].docs)) throw new Error(`${SITES[name].docs} is missing: apt-get install ${SITES[name].package}`);
    const dir = path.join(work, name);
    mkdirSync(dir);
    const site = await harvestSite(name, dir, path.join(dir, 'nginx'));
    results.sites[name] = { origin: site.origin, edits: site.edits, timings: site.timings };
    browser ??= await launchChromium();
    const t0 = Date.now();
    results.replay.push(...(await replaySite(name, site, browser)));
    site.timings.replay = seconds(t0);
    log(name, 'verify --deep of damaged copies');
    for (const row of await damagedCopies(site.waczs.all, path.join(dir, 'damaged'))) results.verify.push({ site: name, ...row });
  }
} finally {
  await browser?.close();
  if (args.keep) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

console.log('| site | WACZ | pages listed | replayed | passed | failed |\n|---|---|---:|---:|---:|---:|');
for (const r of results.replay) console.log(`| ${r.site} | ${r.package} | ${r.pagesListed} | ${r.replayed} | ${r.passed} | ${r.failed} |`);
for (const r of results.replay) for (const f of r.failures) console.log(`  ${r.site} ${r.package}: ${f}`);
console.log('\n| site | damage | verify --deep exit | expected |\n|---|---|---:|---:|');
for (const v of results.verify) console.log(`| ${v.site} | ${v.fault} | ${v.status} | ${v.expected} |${v.status === v.expected ? '' : ' ' + v.out}`);
for (const [name, s] of Object.entries(results.sites)) console.log(`${name}: ${JSON.stringify(s.timings)}`);
const out = path.join(ROOT, 'bench', 'results', `replay-real-${results.when.replace(/[-:]|\.\d+/g, '')}.json`);
writeFileSync(out, JSON.stringify(results, null, 2));
console.error(`results: ${out}`);
const bad = results.replay.some((r) => r.failed > 0) || results.verify.some((v) => v.status !== v.expected);
process.exitCode = bad ? 1 : 0;
