#!/usr/bin/env node
// linkcheck.mjs — offline fidelity of a crawler's saved copy of a sitegen.mjs site (no dependencies, except
// playwright-core for the optional --browser mode).
//
//   node linkcheck.mjs --mirror DIR --manifest SITE/manifest.json [--json OUT.json] [--browser 200] [--quiet]
//
// 1. Coverage: every file under DIR is scanned for the "BID:xxxxxxx" markers sitegen.mjs puts in each page and
//    asset, so coverage does not depend on the crawler's file naming. Also counts trap pages, 404 pages and
//    robots-disallowed pages that ended up on disk, and whether saved binaries are byte-identical in size.
// 2. Static link scan: for every saved site page (a file whose marker is a page id), and every saved stylesheet,
//    references (href, src, srcset, url(), meta refresh, honouring <base href>) are resolved the way a browser
//    opening the file from disk would and classified:
//      local    relative reference to a file that exists on disk (query and fragment ignored, as file:// does)
//      escaped  absolute/protocol-relative reference back to the origin (http(s)://127.0.0.1:PORT) — needs the network
//      external reference to another host (left alone by design)
//      broken   root-relative ("/x" -> file:///x), a missing file, or a directory (a browser shows a listing)
//    Skipped: fragment-only links, mailto:/tel:/javascript:/data:, <link rel=canonical>, form actions.
// 3. --browser N: loads N sampled pages from file:// in Debian's Chromium (playwright-core, /usr/bin/chromium),
//    intercepting every request: file:// requests run (failures counted), http(s) requests are aborted and
//    counted as escaped (origin) or external. No request leaves the machine.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HELP = `linkcheck.mjs --mirror DIR --manifest SITE/manifest.json [--json OUT] [--browser N] [--examples K] [--quiet]`;
function die(m) { process.stderr.write(`linkcheck: ${m}\n`); process.exit(2); }
const opt = { mirror: null, manifest: null, json: null, browser: 0, examples: 8, quiet: false };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const next = () => { if (i + 1 >= a.length) die(`missing value for ${a[i]}`); return a[++i]; };
    if (a[i] === '--mirror') opt.mirror = next();
    else if (a[i] === '--manifest') opt.manifest = next();
    else if (a[i] === '--json') opt.json = next();
    else if (a[i] === '--browser') opt.browser = parseInt(next(), 10);
    else if (a[i] === '--examples') opt.examples = parseInt(next(), 10);
    else if (a[i] === '--quiet') opt.quiet = true;
    else if (a[i] === '-h' || a[i] === '--help') { console.log(HELP); process.exit(0); }
    else die(`unknown argument ${a[i]}\n${HELP}`);
  }
  if (!opt.mirror || !opt.manifest) die(HELP);
}
const MIRROR = path.resolve(opt.mirror);
const manifest = JSON.parse(fs.readFileSync(path.resolve(opt.manifest), 'utf8'));
const ORIGIN = new URL(manifest.origin);
const ORIGIN_HOSTS = new Set([ORIGIN.host, `localhost:${ORIGIN.port}`]);

// ---------------------------------------------------------------- walk + marker scan
const SKIP_DIRS = new Set(['hts-cache']);
const files = []; // {abs, size, ids:[], dyn}
const BID = Buffer.from('BID:');
const DYN = Buffer.from('name="bench-dynamic" content="');
let bytesOnDisk = 0, tmpFiles = 0;
function walk(dir) {
  let ents;
  try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of ents) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) { if (!SKIP_DIRS.has(e.name)) walk(abs); continue; }
    if (!e.isFile()) continue;
    if (e.name.endsWith('.tmp')) { tmpFiles++; continue; } // HTTrack's unfinished downloads
    let buf;
    try { buf = fs.readFileSync(abs); } catch { continue; }
    bytesOnDisk += buf.length;
    const ids = [];
    for (let i = buf.indexOf(BID); i >= 0; i = buf.indexOf(BID, i + 4)) {
      const id = buf.toString('latin1', i + 4, i + 11);
      if (/^[a-z]\d{6}$/.test(id)) ids.push(id);
    }
    let dyn = null;
    const di = buf.indexOf(DYN);
    if (di >= 0 && di < 600) dyn = buf.toString('latin1', di + DYN.length, buf.indexOf(0x22, di + DYN.length));
    files.push({ abs, size: buf.length, ids, dyn, isHtmlPage: ids.length > 0 && ids[0][0] === 'p', isCss: ids.length > 0 && ids[0][0] === 'c' && /\.css$/i.test(abs) });
  }
}
if (!fs.existsSync(MIRROR)) die(`no such folder ${MIRROR}`);
walk(MIRROR);

const byId = new Map();
for (const x of manifest.pages) byId.set(x.id, { ...x, cls: 'page' });
for (const x of manifest.assets) byId.set(x.id, { ...x, cls: 'asset' });
const privateIds = new Set(manifest.robotsDisallowed.pages.map((p) => p.id));
const found = new Map(); // id -> [files]
for (const f of files) for (const id of f.ids) { if (!found.has(id)) found.set(id, []); found.get(id).push(f); }
const cov = { pages: 0, pagesTotal: manifest.pages.length, assets: 0, assetsTotal: manifest.assets.length, binariesSizeMatch: 0, binariesFound: 0 };
const byVia = {}; // only-via class -> {total, found}
const byType = {};
const missingExamples = [];
for (const [id, m] of byId) {
  const ok = found.has(id);
  if (m.cls === 'page') { if (ok) cov.pages++; } else {
    if (ok) cov.assets++;
    const t = (byType[m.type] ||= { total: 0, found: 0 }); t.total++; if (ok) t.found++;
    if (ok && ['img', 'font', 'pdf', 'ico', 'svg'].includes(m.type)) { cov.binariesFound++; if (found.get(id).some((f) => f.size === m.bytes)) cov.binariesSizeMatch++; }
  }
  const v = m.via.length === 1 ? `only:${m.via[0]}` : 'several';
  const e = (byVia[v] ||= { total: 0, found: 0 }); e.total++; if (ok) e.found++;
  if (!ok && missingExamples.length < opt.examples) missingExamples.push(m.url);
}
const dynamicOnDisk = {};
for (const f of files) if (f.dyn) dynamicOnDisk[f.dyn] = (dynamicOnDisk[f.dyn] || 0) + 1;
const privateOnDisk = [...privateIds].filter((id) => found.has(id)).length;

// ---------------------------------------------------------------- static link scan
// "archivable" = the URL (any alias or redirect source) of a page/asset in the manifest. Links to traps, robots-
// disallowed pages, deliberate 404s or redirect loops are not archivable: leaving them absolute is correct.
const normKey = (u) => { const i = u.indexOf('?'); const p = i >= 0 ? u.slice(0, i) : u; let d = p; try { d = decodeURIComponent(p); } catch { /* keep */ } return d + (i >= 0 ? u.slice(i) : ''); };
const archivable = new Set();
for (const e of [...manifest.pages, ...manifest.assets]) { archivable.add(normKey(e.url)); for (const u of e.urls || []) archivable.add(normKey(u)); }
const isArchivable = (pathAndQuery) => archivable.has(normKey(pathAndQuery));
const pageUrlById = new Map(manifest.pages.map((p) => [p.id, p]));
const ENT = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'", '#34': '"', '#38': '&', '#x26': '&', '#x27': "'" };
const decodeEnt = (s) => s.replace(/&(amp|quot|apos|lt|gt|#39|#34|#38|#x26|#x27);/gi, (m, k) => ENT[k.toLowerCase()] ?? m);
function extractHtmlRefs(html) {
  const refs = [];
  let base = null;
  const bm = /<base\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html);
  if (bm) base = decodeEnt(bm[1] ?? bm[2] ?? bm[3]);
  const tagRe = /<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/g;
  let m;
  while ((m = tagRe.exec(html))) {
    const tag = m[1].toLowerCase(); const attrs = m[2];
    if (tag === 'base' || tag === 'form') continue;
    const attrRe = /([a-zA-Z-:]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;
    let a; const at = {};
    while ((a = attrRe.exec(attrs))) at[a[1].toLowerCase()] = decodeEnt(a[2] ?? a[3] ?? a[4] ?? '');
    if (tag === 'link' && /(^|\s)(canonical|alternate|shortlink)(\s|$)/i.test(at.rel || '')) continue;
    for (const k of ['href', 'src', 'poster', 'background']) if (at[k] !== undefined) refs.push({ ref: at[k], kind: `${tag}@${k}` });
    if (tag === 'object' && at.data !== undefined) refs.push({ ref: at.data, kind: 'object@data' });
    for (const k of ['srcset', 'imagesrcset']) if (at[k]) for (const part of at[k].split(/,\s+/)) { const u = part.trim().split(/\s+/)[0]; if (u) refs.push({ ref: u, kind: `${tag}@srcset` }); }
    if (at.style) for (const u of cssUrls(at.style)) refs.push({ ref: u, kind: 'style-attr' });
    if (tag === 'meta' && /refresh/i.test(at['http-equiv'] || '') && at.content) { const r = /url\s*=\s*['"]?([^'";]+)/i.exec(at.content); if (r) refs.push({ ref: r[1].trim(), kind: 'meta-refresh' }); }
  }
  const styleRe = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
  while ((m = styleRe.exec(html))) for (const u of cssUrls(m[1])) refs.push({ ref: u, kind: 'style-block' });
  return { refs, base };
}
function cssUrls(css) {
  const out = [];
  const re = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;
  let m;
  while ((m = re.exec(css))) { const u = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim(); if (u) out.push(u); }
  return out;
}
const statCache = new Map();
function statKind(abs) {
  if (statCache.has(abs)) return statCache.get(abs);
  let k = 'missing';
  try { const st = fs.statSync(abs); k = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'missing'; } catch { /* missing */ }
  statCache.set(abs, k);
  return k;
}
function originalTarget(ref, page, base) { // where the reference pointed on the live site, if left unconverted
  try {
    const pageUrl = new URL(page.url, ORIGIN);
    const b = base ? new URL(base, pageUrl) : pageUrl;
    const u = new URL(ref, b);
    if (!ORIGIN_HOSTS.has(u.host)) return null;
    return u.pathname + u.search;
  } catch { return null; }
}
function classify(ref, fileAbs, base) {
  ref = ref.trim();
  if (!ref || ref.startsWith('#')) return 'skip';
  if (/^(mailto|tel|javascript|data|about|blob):/i.test(ref)) return 'skip';
  let u;
  try {
    const docUrl = pathToFileURL(fileAbs).href;
    const baseUrl = base ? new URL(base, docUrl).href : docUrl;
    u = new URL(ref, baseUrl);
  } catch { return 'broken'; }
  if (u.protocol === 'http:' || u.protocol === 'https:') return ORIGIN_HOSTS.has(u.host) ? 'escaped' : 'external';
  if (u.protocol !== 'file:') return 'skip';
  let p;
  try { p = decodeURIComponent(u.pathname); } catch { return 'broken'; }
  if (!p.startsWith(MIRROR + '/') && p !== MIRROR) return /^\/[^/]/.test(ref) ? 'rootRelative' : 'outside';
  const k = statKind(p);
  return k === 'file' ? 'local' : k === 'dir' ? 'dir' : 'missing';
}
const links = { pagesScanned: 0, cssScanned: 0, refs: 0, local: 0, escaped: 0, external: 0, broken: 0, skipped: 0, escapedArchivable: 0, brokenArchivable: 0, brokenBy: { rootRelative: 0, missing: 0, dir: 0, outside: 0, unparsable: 0 }, pagesFullyLocal: 0, byKind: {} };
const examples = { escaped: [], broken: [] };
function tally(kind, cls, ref, fileAbs, page, base) {
  const k = (links.byKind[kind] ||= { local: 0, escaped: 0, external: 0, broken: 0 });
  if (cls === 'skip') { links.skipped++; return true; }
  links.refs++;
  if (cls === 'local' || cls === 'external') { links[cls]++; k[cls]++; return true; }
  // escaped or broken: does it point at something the archive should contain?
  let target = null;
  if (cls === 'escaped') { try { const u = new URL(ref, ORIGIN); target = u.pathname + u.search; } catch { /* ignore */ } }
  else if (page) target = originalTarget(ref, page, base);
  const arch = target != null && isArchivable(target);
  if (cls === 'escaped') { links.escaped++; k.escaped++; if (arch) links.escapedArchivable++; }
  else { links.broken++; k.broken++; if (arch) links.brokenArchivable++; links.brokenBy[cls === 'rootRelative' || cls === 'missing' || cls === 'dir' || cls === 'outside' ? cls : 'unparsable']++; }
  const bucket = cls === 'escaped' ? examples.escaped : examples.broken;
  if (arch && bucket.length < opt.examples) bucket.push(`${path.relative(MIRROR, fileAbs)} -> ${ref}${cls !== 'escaped' ? ` (${cls})` : ''}`);
  return !arch;
}
for (const f of files) {
  if (!f.isHtmlPage && !f.isCss) continue;
  const text = fs.readFileSync(f.abs).toString('latin1');
  if (f.isHtmlPage) {
    links.pagesScanned++;
    const { refs, base } = extractHtmlRefs(text);
    const page = pageUrlById.get(f.ids[0]);
    let allOk = true;
    for (const r of refs) if (!tally(r.kind, classify(r.ref, f.abs, base), r.ref, f.abs, page, base)) allOk = false;
    if (allOk) links.pagesFullyLocal++;
  } else {
    links.cssScanned++;
    const asset = manifest.assets.find((a) => a.id === f.ids[0]);
    for (const u of cssUrls(text)) tally('css', classify(u, f.abs, null), u, f.abs, asset, null);
  }
}
const pct = (a, b) => (b ? Math.round(1000 * a / b) / 10 : 0);

// ---------------------------------------------------------------- optional: headless Chromium on a sample
async function browserCheck(n) {
  const require = createRequire(path.join(HERE, 'package.json'));
  let chromium;
  try { ({ chromium } = require('playwright-core')); } catch { return { error: `playwright-core not found (npm install in the project)` }; }
  if (!fs.existsSync('/usr/bin/chromium')) return { error: '/usr/bin/chromium missing (apt-get install chromium)' };
  const pagesOnDisk = files.filter((f) => f.isHtmlPage).sort((a, b) => (a.abs < b.abs ? -1 : 1));
  const step = Math.max(1, Math.floor(pagesOnDisk.length / n));
  const sample = pagesOnDisk.filter((_, i) => i % step === 0).slice(0, n);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync',
      '--allow-file-access-from-files', '--dns-prefetch-disable', '--host-resolver-rules=MAP * ~NOTFOUND'],
  });
  const r = { pages: sample.length, requests: 0, fileOk: 0, fileFailed: 0, escaped: 0, external: 0, pagesClean: 0, loadErrors: 0, failedExamples: [], escapedExamples: [] };
  const t0 = Date.now();
  try {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    // requests are attributed to the page (tab) that made them; each worker owns one tab
    const current = new Map(); // Page -> {file, bad}
    await ctx.route('**/*', (route) => {
      const req = route.request(); const url = req.url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      const st = current.get(req.frame().page());
      r.requests++;
      let host = ''; try { host = new URL(url).host; } catch { /* ignore */ }
      if (ORIGIN_HOSTS.has(host)) { r.escaped++; if (st) st.bad++; if (r.escapedExamples.length < opt.examples) r.escapedExamples.push(`${st ? path.relative(MIRROR, st.file) : '?'} -> ${url}`); } else r.external++;
      return route.abort('blockedbyclient');
    });
    ctx.on('requestfinished', (req) => { if (req.url().startsWith('file:')) { r.requests++; r.fileOk++; } });
    ctx.on('requestfailed', (req) => {
      const url = req.url();
      if (!url.startsWith('file:')) return;
      const st = current.get(req.frame().page());
      r.requests++; r.fileFailed++; if (st) st.bad++;
      if (r.failedExamples.length < opt.examples) r.failedExamples.push(`${st ? path.relative(MIRROR, st.file) : '?'} -> ${decodeURIComponent(url.replace('file://' + MIRROR, ''))} (${req.failure()?.errorText})`);
    });
    let next = 0;
    const worker = async () => {
      const page = await ctx.newPage();
      while (next < sample.length) {
        const f = sample[next++];
        const st = { file: f.abs, bad: 0 };
        current.set(page, st);
        try { await page.goto(pathToFileURL(f.abs).href, { waitUntil: 'load', timeout: 15000 }); } catch { r.loadErrors++; st.bad++; }
        if (!st.bad) r.pagesClean++;
        try { await page.goto('about:blank'); } catch { /* ignore */ }
      }
      await page.close();
    };
    await Promise.all(Array.from({ length: 3 }, worker));
  } finally { await browser.close(); }
  r.seconds = Math.round((Date.now() - t0) / 100) / 10;
  return r;
}

const result = {
  mirror: MIRROR, files: files.length, bytesOnDisk, unfinishedTmpFiles: tmpFiles,
  coverage: { ...cov, pagesPct: pct(cov.pages, cov.pagesTotal), assetsPct: pct(cov.assets, cov.assetsTotal), byType, byVia, missingExamples },
  dynamicOnDisk, privatePagesOnDisk: privateOnDisk,
  links: {
    ...links, localPct: pct(links.local, links.refs), escapedPct: pct(links.escaped, links.refs), brokenPct: pct(links.broken, links.refs), externalPct: pct(links.external, links.refs),
    // fidelity: of the references to archivable content, the share that works from disk
    archivableRefs: links.local + links.escapedArchivable + links.brokenArchivable,
    fidelityPct: pct(links.local, links.local + links.escapedArchivable + links.brokenArchivable),
    examples,
  },
};
if (opt.browser > 0) result.browser = await browserCheck(opt.browser);
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(result, null, 1));
if (!opt.quiet) {
  const L = result.links, C = result.coverage;
  const lines = [
    `mirror ${MIRROR}: ${files.length} files, ${(bytesOnDisk / 1048576).toFixed(1)} MiB${tmpFiles ? ` (+${tmpFiles} unfinished *.tmp files ignored)` : ''}`,
    `coverage: pages ${C.pages}/${C.pagesTotal} (${C.pagesPct}%), assets ${C.assets}/${C.assetsTotal} (${C.assetsPct}%), binaries with original size ${C.binariesSizeMatch}/${C.binariesFound}`,
    `  by asset type: ${Object.entries(C.byType).map(([k, v]) => `${k} ${v.found}/${v.total}`).join(', ')}`,
    `  reachable only via: ${Object.entries(C.byVia).filter(([k]) => k !== 'several').map(([k, v]) => `${k.slice(5)} ${v.found}/${v.total}`).join(', ')}`,
    `on disk also: ${Object.entries(dynamicOnDisk).map(([k, v]) => `${k} ${v}`).join(', ') || 'no trap/404 pages'}; robots-disallowed pages ${privateOnDisk}`,
    `links in ${L.pagesScanned} saved pages + ${L.cssScanned} stylesheets: ${L.refs} refs — local ${L.local} (${L.localPct}%), escaped to origin ${L.escaped} (${L.escapedPct}%), broken ${L.broken} (${L.brokenPct}%), external ${L.external} (${L.externalPct}%)`,
    `  to archivable content: ${L.archivableRefs} refs, working offline ${L.fidelityPct}% (escaped ${L.escapedArchivable}, broken ${L.brokenArchivable}); the other escaped/broken refs point at traps, robots-disallowed or 404 URLs`,
    `  broken: root-relative ${L.brokenBy.rootRelative}, missing file ${L.brokenBy.missing}, directory ${L.brokenBy.dir}, outside mirror ${L.brokenBy.outside}; pages whose archivable references all work offline: ${L.pagesFullyLocal}/${L.pagesScanned}`,
  ];
  if (examples.escaped.length) lines.push(`  e.g. escaped: ${examples.escaped.slice(0, 3).join(' | ')}`);
  if (examples.broken.length) lines.push(`  e.g. broken: ${examples.broken.slice(0, 3).join(' | ')}`);
  if (result.browser) {
    const b = result.browser;
    lines.push(b.error ? `browser: ${b.error}` : `browser (${b.pages} pages from file://): ${b.requests} requests — file ok ${b.fileOk}, file failed ${b.fileFailed}, escaped to origin ${b.escaped}, external ${b.external}; clean pages ${b.pagesClean}/${b.pages}, load errors ${b.loadErrors}`);
  }
  console.log(lines.join('\n'));
}
