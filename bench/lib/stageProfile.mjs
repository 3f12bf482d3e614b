// Where a crawl's CPU goes, by stage: Harvest's compiled modules (dist/, not the bundle, so every
// function keeps its module's path) run under `node --cpu-prof`, which writes one V8 profile per
// thread (the crawl loop and each document worker). Each sample goes to the stage of the innermost
// frame on its stack that a rule below names: a library call (SQLite, zlib, a hash) counts for the
// module of Harvest's that made it, so gzip done for the WARC is WARC work and brotli done for the
// index is index work. Idle samples are left out; what no rule names is the crawl loop's own.
import fs from 'node:fs';
import path from 'node:path';
import { round } from './measure.mjs';

export const STAGES = [
  'fetch and decode',
  'parse and link extraction',
  'rewriting and mirror files',
  'WARC writing and gzip',
  'digests (SHA-1, SHA-256)',
  'catalogue (SQLite, frontier)',
  'text extraction and search index',
  'progress and events',
  'messages between threads',
  'GC (on the JS threads)',
  'crawl loop and the rest',
];
const [FETCH, PARSE, REWRITE, WARC, DIGEST, CATALOGUE, TEXT, PROGRESS, MESSAGES, GC, REST] = STAGES;

/** [stage, test on the frame's module path (after dist/electron/ for Harvest's own), optional test on its function name]; first match wins. */
const RULES = [
  [DIGEST, /^node:internal\/crypto\/hash|^engine\/warc\/digest\./],
  [FETCH, /^engine\/fetch\/|^engine\/parse\/decode\.|^engine\/crawl\/(requestHeaders|robotsFetch)\.|node_modules\/(undici|encoding-sniffer|iconv-lite|whatwg-encoding)\//],
  [TEXT, /^engine\/parse\/(pageText|textCollector|visibleText|wordBreaks|fileText)\.|^engine\/store\/(textIndex|packedText)\.|^engine\/crawl\/(textWriter|textFeed|textIndexing)\.|node_modules\/pdf2json\//],
  [REWRITE, /^engine\/parse\/html\./, /render|splice|rewrite/i],
  [REWRITE, /^engine\/parse\/splice\.|^engine\/url\/localPath\.|^engine\/store\/mirror\.|^engine\/crawl\/entryPage\./],
  [PARSE, /^engine\/parse\/|^engine\/url\/|^engine\/(scope|traps)\.|^engine\/crawl\/linkAdmission\.|node_modules\/(htmlparser2|tldts|tldts-core|robots-parser)\//],
  [WARC, /^engine\/warc\//],
  [CATALOGUE, /^engine\/store\/|^engine\/crawl\/(frontier|frontierOrder|finalize)\.|node_modules\/better-sqlite3\//],
  [PROGRESS, /^engine\/crawl\/progress\.|^host\/|^cli\/(progressLine|countProgress|byteProgress|eventLog)\./],
  [MESSAGES, /^engine\/crawl\/(documentPool|documentService|documentWorker|documentMessages)\.|^node:internal\/worker/],
];

function modulePath(url) {
  const i = url.indexOf('/dist/electron/');
  return i >= 0 ? url.slice(i + '/dist/electron/'.length) : url;
}

function stageOfFrame(frame) {
  if (frame.functionName === '(garbage collector)') return GC;
  if (frame.functionName === '(idle)') return null;
  const where = modulePath(frame.url);
  // Its samples are a thread asleep in Atomics.wait for another's file to be made: not CPU.
  if (where.startsWith('engine/store/createGate.')) return null;
  for (const [stage, file, name] of RULES) if (file.test(where) && (!name || name.test(frame.functionName))) return stage;
  return undefined;
}

/** Milliseconds by stage in one .cpuprofile, and the busiest functions (self time) of each stage. */
export function stagesOfProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map();
  const resolve = (id) => {
    if (stageOf.has(id)) return stageOf.get(id);
    const own = stageOfFrame(byId.get(id).callFrame);
    const p = parent.get(id);
    const s = own !== undefined ? own : p === undefined ? REST : resolve(p);
    stageOf.set(id, s);
    return s;
  };
  const ms = Object.fromEntries(STAGES.map((s) => [s, 0]));
  const selfMs = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // A sample stands for the time until the next one.
    const dt = (timeDeltas[i + 1] ?? timeDeltas[i] ?? 0) / 1000;
    const stage = resolve(samples[i]);
    if (stage === null) continue;
    ms[stage] += dt;
    selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + dt);
  }
  const top = [];
  for (const [id, t] of selfMs) {
    const f = byId.get(id).callFrame;
    top.push({ stage: resolve(id), fn: `${f.functionName || '(anonymous)'} ${modulePath(f.url)}:${f.lineNumber + 1}`, ms: t });
  }
  return { ms, top };
}

/**
 * Every profile in `dir`, summed; each stage's share of the busy samples and, given the crawl's
 * measured CPU seconds and requests, its CPU milliseconds per request (the share of the measured
 * CPU: the profiler's samples also count time a thread waited for a core on a loaded machine).
 */
export function stageTable(dir, { cpuSeconds, requests }) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const ms = Object.fromEntries(STAGES.map((s) => [s, 0]));
  const top = new Map();
  for (const f of files) {
    const one = stagesOfProfile(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    for (const s of STAGES) ms[s] += one.ms[s];
    for (const t of one.top) top.set(t.fn, { stage: t.stage, ms: (top.get(t.fn)?.ms ?? 0) + t.ms });
  }
  const busyMs = STAGES.reduce((n, s) => n + ms[s], 0);
  const perRequest = (share) => (cpuSeconds != null && requests ? round((share * cpuSeconds * 1000) / requests, 3) : null);
  return {
    threads: files.length,
    busySeconds: round(busyMs / 1000, 2),
    cpuSeconds,
    requests,
    stages: STAGES.map((s) => ({ stage: s, pct: round((100 * ms[s]) / busyMs, 1), msPerRequest: perRequest(ms[s] / busyMs) })),
    topFunctions: [...top.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 25)
      .map(([fn, t]) => ({ fn, stage: t.stage, pct: round((100 * t.ms) / busyMs, 1) })),
  };
}
