#!/usr/bin/env node
/**
 * Search benchmark: query latency (p50/p95 over a mix of queries, 20 hits each) on a synthetic
 * index of --pages documents (Zipf-distributed words, some CJK), built once and cached; with
 * --archive, the same on a crawled archive, plus its index size against catalogue + WARC and the
 * indexing cost per document (a full `harvest reindex`). Run alone or as `npm run bench -- --scenarios 6`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(path.join(ROOT, 'dist', p)).href;

const RUNS = 30;
const QUERIES = ['harbor', 'vellum', 'ledger archive', '"ledger archive"', 'catal*', 'ledger NOT archive', 'quillfeather OR zanzibar', '図書館', 'the'];

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(random, n) {
  const syl = ['ar', 'chi', 've', 'led', 'ger', 'cat', 'a', 'log', 'ue', 'har', 'bor', 'vel', 'lum', 'quill', 'fea', 'ther', 'zan', 'zi', 'bar', 'mo', 'nu', 'ment', 'pa', 'per', 'li', 'bra', 'ry', 'col', 'lec', 'tion'];
  const words = new Set(['the', 'of', 'and', 'archive', 'ledger', 'catalogue', 'library', 'harbor', 'vellum', 'collection']);
  while (words.size < n) {
    let w = '';
    const k = 2 + Math.floor(random() * 3);
    for (let i = 0; i < k; i++) w += syl[Math.floor(random() * syl.length)];
    words.add(w);
  }
  return [...words];
}

/** Builds (or reuses) a synthetic index of `pages` documents; returns its file and build time per document. */
async function syntheticIndex(pages, dir, log) {
  const { TextIndex, packText } = await import(dist('electron/engine/store/textIndex.js'));
  const { cleanText } = await import(dist('electron/engine/parse/pageText.js'));
  const archiveDir = path.join(dir, `synthetic-${pages}`);
  const file = TextIndex.fileIn(archiveDir);
  if (fs.existsSync(file)) return { archiveDir, buildMsPerDoc: null };
  fs.mkdirSync(archiveDir, { recursive: true });
  const random = rng(pages);
  const words = vocabulary(random, 20_000);
  // Zipf: word i is drawn with weight 1/(i+1).
  const cumulative = [];
  let sum = 0;
  for (let i = 0; i < words.length; i++) cumulative.push((sum += 1 / (i + 1)));
  const pick = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  const sentence = (n) => Array.from({ length: n }, pick).join(' ');
  const cjk = ['東京都の図書館で古い新聞を保存しています。', '北京大学图书馆收藏了很多古籍善本。'];
  const index = TextIndex.openWritable(file + '.building');
  const started = Date.now();
  for (let i = 1; i <= pages; i++) {
    const lines = Array.from({ length: 12 }, () => sentence(25));
    if (i % 50 === 0) lines.push(cjk[i % 2]);
    const text = { title: cleanText(sentence(5)), headings: cleanText(lines[0]), body: cleanText(lines.join('\n')) };
    index.add({ urlId: i, url: `https://synthetic.example/page/${i}.html`, capture: 1, kind: 'html', fetchedAt: '2026-01-01T00:00:00.000Z', text: packText(text) });
    if (i % 10_000 === 0) log(`synthetic index: ${i}/${pages} documents`);
  }
  index.close({ optimize: true });
  fs.renameSync(file + '.building', file);
  return { archiveDir, buildMsPerDoc: (Date.now() - started) / pages };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (sorted, p) => +percentile(sorted, p).toFixed(2);

/**
 * Wall time and this process's CPU time per query: on a shared machine the wall time also measures
 * the neighbours (the load average is recorded), the CPU time only the query.
 */
async function latency(archiveDir) {
  const { TextIndex } = await import(dist('electron/engine/store/textIndex.js'));
  const index = TextIndex.openReadonly(archiveDir);
  const all = [];
  const allCpu = [];
  const perQuery = {};
  const loadBefore = os.loadavg()[0];
  try {
    for (const q of QUERIES) index.search(q, { limit: 20 });
    for (const q of QUERIES) {
      const times = [];
      const cpu = [];
      let result = null;
      for (let i = 0; i < RUNS; i++) {
        const c = process.cpuUsage();
        const t = process.hrtime.bigint();
        result = index.search(q, { limit: 20 });
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
        const used = process.cpuUsage(c);
        cpu.push((used.user + used.system) / 1000);
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      perQuery[q] = { matches: result.total, ranked: result.ranked, p50: ms(times, 50), p95: ms(times, 95), cpuP50: ms(cpu, 50), cpuP95: ms(cpu, 95) };
      all.push(...times);
      allCpu.push(...cpu);
    }
  } finally {
    index.close();
  }
  all.sort((a, b) => a - b);
  allCpu.sort((a, b) => a - b);
  const load = [loadBefore, os.loadavg()[0]].map((l) => +l.toFixed(1));
  return { p50Ms: ms(all, 50), p95Ms: ms(all, 95), cpuP50Ms: ms(allCpu, 50), cpuP95Ms: ms(allCpu, 95), loadAverage: load, cores: os.availableParallelism(), queries: perQuery, runsPerQuery: RUNS };
}

const size = (p) => (fs.existsSync(p) ? fs.statSync(p).size : 0);
function dirSize(d) {
  if (!fs.existsSync(d)) return 0;
  return fs.readdirSync(d).reduce((n, f) => n + size(path.join(d, f)), 0);
}

/** Index size against catalogue + WARC, and a full reindex's time per document, on a crawled archive. */
async function archiveFigures(archiveDir, log) {
  log(`reindexing ${archiveDir}`);
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/electron/bundle/harvest.js'), 'reindex', archiveDir, '--quiet'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reindex failed: ${r.stderr}`);
  const seconds = (Date.now() - started) / 1000;
  const documents = Number(/indexed (\d+) documents/.exec(r.stderr)?.[1] ?? 0);
  const index = size(path.join(archiveDir, 'text.sqlite'));
  const base = size(path.join(archiveDir, 'catalogue.sqlite')) + dirSize(path.join(archiveDir, 'warc'));
  return {
    documents,
    reindexSeconds: +seconds.toFixed(1),
    reindexMsPerDocument: documents ? +((seconds * 1000) / documents).toFixed(2) : null,
    indexBytes: index,
    catalogueAndWarcBytes: base,
    indexShare: +(index / base).toFixed(3),
    latency: await latency(archiveDir),
  };
}

export async function searchBench({ pages = [5000, 100000], archive = null, work = '/tmp/harvest-bench/search', log = console.error } = {}) {
  fs.mkdirSync(work, { recursive: true });
  const synthetic = {};
  for (const n of pages) {
    const built = await syntheticIndex(n, work, log);
    synthetic[n] = { ...built, indexBytes: size(path.join(built.archiveDir, 'text.sqlite')), latency: await latency(built.archiveDir) };
    const l = synthetic[n].latency;
    log(`synthetic ${n}: p50 ${l.p50Ms} ms, p95 ${l.p95Ms} ms (CPU ${l.cpuP50Ms}, ${l.cpuP95Ms} ms; load ${l.loadAverage.join(' -> ')})`);
  }
  return { targetP95Ms: 50, targetIndexShare: 0.25, synthetic, archive: archive ? await archiveFigures(archive, log) : null };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '5000,100000' }, archive: { type: 'string' }, work: { type: 'string' } } });
  const result = await searchBench({
    pages: values.pages.split(',').map(Number),
    archive: values.archive ? path.resolve(values.archive) : null,
    ...(values.work && { work: values.work }),
  });
  console.log(JSON.stringify(result, null, 1));
}
