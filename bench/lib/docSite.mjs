// Scenario 9: a real documentation site served by nginx with gzip on, not the bench's generated one:
// Debian's HTML manuals of Python 3.11 and PostgreSQL 15 under one origin. Harvest (the bench's
// settings) against `wget -m -k -E -p` in the same run: wall time, CPU, and offline fidelity of each
// saved copy (every reference of every saved page and stylesheet resolves to a file on disk). The
// manuals load nothing from other hosts; --no-offsite-requisites makes sure no request leaves the machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { harvestCommand } from './crawlers.mjs';
import { duBytes, round, runMeasured } from './measure.mjs';
import { ensureDebianPackages, Nginx } from './nginx.mjs';

const MANUALS = {
  python: { pkg: 'python3.11-doc', dir: '/usr/share/doc/python3.11/html' },
  postgresql: { pkg: 'postgresql-doc-15', dir: '/usr/share/doc/postgresql-doc-15/html' },
};

/** The two manuals under one root, with a page linking both. */
function manualsRoot(dir) {
  const root = path.join(dir, 'root');
  fs.mkdirSync(root, { recursive: true });
  for (const [name, m] of Object.entries(MANUALS)) if (!fs.existsSync(path.join(root, name))) fs.symlinkSync(m.dir, path.join(root, name));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Manuals</title><h1>Manuals</h1><ul><li><a href="python/index.html">Python 3.11</a><li><a href="postgresql/index.html">PostgreSQL 15</a></ul>\n');
  return root;
}

/** A start tag's href/src attributes (not text that merely shows markup, as `&lt;a href=…&gt;` in a code sample). */
const TAG = /<[a-z][^<>]*>/gi;
const ATTR = /\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>'"]+))/gi;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]+))\s*\)/gi;
const SKIP = /^(?:#|mailto:|javascript:|data:|tel:)/i;

function filesUnder(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.join(e.parentPath ?? e.path, e.name));
  return out;
}

function* refsOf(file) {
  const text = fs.readFileSync(file, 'latin1');
  if (/\.css$/i.test(file)) {
    for (const m of text.matchAll(CSS_URL)) yield m[1] ?? m[2] ?? m[3];
    return;
  }
  for (const tag of text.matchAll(TAG)) for (const m of tag[0].matchAll(ATTR)) yield (m[1] ?? m[2] ?? m[3]).replaceAll('&amp;', '&');
}

/** Whether the server answers `url` with a 2xx: a reference left absolute to one that doesn't (a 404) is by design. */
async function served(url) {
  const r = await fetch(url, { redirect: 'follow' }).catch(() => null);
  await r?.body?.cancel();
  return r !== null && r.ok;
}

/**
 * Offline fidelity of a saved copy: each reference of each saved HTML page and stylesheet, resolved as
 * a browser opening the file would, is local (a file on disk), escaping (absolute, back to the origin,
 * to a URL the server serves: needs the network) or broken (a missing file). References left absolute
 * to URLs the server answers with an error are counted apart.
 */
export async function offlineFidelity(mirror, origin) {
  const files = filesUnder(mirror);
  let refs = 0;
  let local = 0;
  const absolute = new Map();
  const broken = [];
  for (const file of files) {
    if (!/\.(html?|css)$/i.test(file)) continue;
    for (const raw of refsOf(file)) {
      const ref = raw.trim();
      if (ref === '' || SKIP.test(ref)) continue;
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(ref)) {
        const abs = new URL(ref, origin);
        if (abs.origin === origin) absolute.set(abs.href.split('#')[0], (absolute.get(abs.href.split('#')[0]) ?? 0) + 1);
        continue;
      }
      refs++;
      const file0 = ref.split(/[?#]/)[0];
      const target = path.resolve(path.dirname(file), decodeURIComponent(file0));
      if (file0 === '' || (fs.existsSync(target) && fs.statSync(target).isFile())) local++;
      else if (broken.length < 5) broken.push(`${path.relative(mirror, file)} -> ${ref}`);
    }
  }
  let escaping = 0;
  let toErrors = 0;
  const escapingExamples = [];
  for (const [url, n] of absolute) {
    if (await served(url)) {
      escaping += n;
      if (escapingExamples.length < 5) escapingExamples.push(url);
    } else toErrors += n;
  }
  return {
    pages: files.filter((f) => /\.html?$/i.test(f)).length,
    files: files.length,
    refs,
    local,
    escaping,
    escapingExamples,
    absoluteToErrors: toErrors,
    broken: refs - local,
    brokenExamples: broken,
    fidelityPct: refs + escaping === 0 ? null : round((100 * local) / (refs + escaping), 2),
  };
}

export async function docSiteBench(ctx) {
  ensureDebianPackages(Object.values(MANUALS), ctx.log, { extra: ['wget'] });
  const dir = path.join(ctx.out, 'scenario9');
  fs.mkdirSync(dir, { recursive: true });
  const nginx = await new Nginx(path.join(dir, 'nginx'), [{ name: 'manuals', root: manualsRoot(dir), port: ctx.port + 200 }]).start();
  const server = { origin: nginx.origin('manuals'), reset: () => nginx.reset('manuals'), requests: () => nginx.requests('manuals'), stop: () => nginx.stop() };
  const source = Object.values(MANUALS).reduce((n, m) => n + filesUnder(m.dir).filter((f) => f.endsWith('.html')).length, 0);
  try {
    // Warm the page cache and nginx before either crawler is timed.
    spawnSync('wget', ['-q', '-r', '-l', 'inf', '-np', '-P', path.join(dir, 'warm'), `${server.origin}/`]);
    fs.rmSync(path.join(dir, 'warm'), { recursive: true, force: true });
    const runs = {};
    const archive = path.join(dir, 'harvest');
    const wgetOut = path.join(dir, 'wget');
    const crawlers = {
      harvest: { cmd: harvestCommand(ctx.root, ['crawl', `${server.origin}/`, '--out', archive, '--no-offsite-requisites']), mirror: path.join(archive, 'mirror'), disk: archive },
      wget: { cmd: ['wget', '-m', '-k', '-E', '-p', '-nv', '-o', `${wgetOut}.log`, '-P', wgetOut, `${server.origin}/`], mirror: wgetOut, disk: wgetOut },
    };
    for (const [name, c] of Object.entries(crawlers)) {
      ctx.log(`scenario 9: ${name}`);
      server.reset();
      const run = await runMeasured(c.cmd, { dir: path.join(dir, `${name}-run`), capSeconds: ctx.harvestCap });
      runs[name] = { ...run, requests: server.requests(), diskMiB: fs.existsSync(c.disk) ? round(duBytes(c.disk) / 1048576, 1) : null, offline: fs.existsSync(c.mirror) ? await offlineFidelity(c.mirror, server.origin) : null };
      if (!ctx.keepMirrors) fs.rmSync(c.disk, { recursive: true, force: true });
    }
    const ratio = round(runs.harvest.wallSeconds / runs.wget.wallSeconds, 2);
    const h = runs.harvest.offline;
    return {
      manuals: Object.keys(MANUALS),
      sourcePages: source,
      harvest: runs.harvest,
      wget: runs.wget,
      wallRatio: ratio,
      met: ratio <= 1 && h !== null && h.broken === 0 && h.escaping === 0 && runs.harvest.exit === 0,
    };
  } finally {
    await server.stop();
  }
}
