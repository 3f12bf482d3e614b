#!/usr/bin/env node
// The least a Node crawler must do for the bench site, as a yardstick for scenario 1: fetch every
// page and asset the manifest lists (known in advance, so no link discovery), over 8 kept-alive
// connections with the given Accept-Encoding (Harvest's), undo the compression, tokenise each HTML page with
// htmlparser2 and write each body to its own file. No scope, robots, politeness, WARC, catalogue or
// rewriting. Prints one JSON line: requests, wall and CPU seconds.
//
// With --archive, the archive work an archiving crawler cannot leave out, done by Harvest's own
// modules (dist/) on the same one thread: each exchange as WARC records (warc/writer.ts, gzip per
// record), each HTML page and stylesheet parsed with its links canonicalised, its copy rendered with
// every link pointing at the target's local path and written (crawl/documentWork.ts), the page's
// text packed and filed in an FTS5 search index (crawl/textWriter.ts), and one catalogue row per
// URL, committed every 100 responses. Still no link discovery, scope, robots, politeness, retries
// or message passing: what is left between this and Harvest is the crawl's own machinery.
//
//   node bench/floor.mjs --origin http://127.0.0.1:8765 --manifest SITE/manifest.json --out DIR --accept-encoding 'gzip, deflate, br' [--archive]
//   node bench/floor.mjs --origin URL --paths-file FILE ...   (one path per line: a real site's URLs, as a crawl of it requested them)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { Pool } from 'undici';
import { manifestPaths } from './lib/site.mjs';

const { values: opt } = parseArgs({
  options: { origin: { type: 'string' }, manifest: { type: 'string' }, 'paths-file': { type: 'string' }, out: { type: 'string' }, 'accept-encoding': { type: 'string' }, connections: { type: 'string', default: '8' }, archive: { type: 'boolean', default: false } },
});
if (!opt.origin || !(opt.manifest || opt['paths-file']) || !opt.out || !opt['accept-encoding']) {
  console.error('usage: floor.mjs --origin URL (--manifest FILE | --paths-file FILE) --out DIR --accept-encoding VALUE [--connections N] [--archive]');
  process.exit(2);
}
const paths = opt.manifest ? manifestPaths(opt.manifest, opt.origin) : fs.readFileSync(opt['paths-file'], 'utf8').split('\n').filter(Boolean);
fs.mkdirSync(opt.out, { recursive: true });

const DECODERS = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync };
const connections = Number(opt.connections);
const pool = new Pool(opt.origin, { connections, pipelining: 1 });
let next = 0;
let tokens = 0;
let bytes = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const archive = opt.archive ? await openArchiveWork(opt.out) : null;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (next < paths.length) {
      const i = next++;
      const { statusCode, headers, body } = await pool.request({ path: paths[i], method: 'GET', headers: { 'accept-encoding': opt['accept-encoding'] } });
      const chunks = [];
      for await (const c of body) chunks.push(c);
      const wire = Buffer.concat(chunks);
      let payload = wire;
      const decode = DECODERS[String(headers['content-encoding'] ?? '')];
      if (decode) payload = decode(payload);
      bytes += payload.length;
      if (archive) {
        await archive.take(paths[i], statusCode, headers, wire, payload);
        continue;
      }
      if (String(headers['content-type'] ?? '').startsWith('text/html')) {
        const parser = new Parser({ onattribute: () => tokens++ });
        parser.end(payload.toString('utf8'));
      }
      fs.writeFileSync(path.join(opt.out, String(i)), payload);
    }
  }),
);
await pool.close();
await archive?.close();
const cpu = process.cpuUsage(cpu0);
const r2 = (x) => Math.round(x * 100) / 100;
console.log(JSON.stringify({ requests: paths.length, connections, archive: opt.archive, wallSeconds: r2((performance.now() - t0) / 1000), cpuSeconds: r2((cpu.user + cpu.system) / 1e6), bytes, attributes: tokens }));

/** The archive work of --archive, with the modules Harvest's crawl uses. */
async function openArchiveWork(out) {
  const dist = (p) => import(new URL(`../dist/electron/engine/${p}`, import.meta.url).href);
  const [{ WarcWriter }, { DocumentWork }, { TextWriter }, { Mirror }, { TextIndex }, { localPathFor, predictedLocalPath }, { canonicalize }, { default: Database }] = await Promise.all([
    dist('warc/writer.js'),
    dist('crawl/documentWork.js'),
    dist('crawl/textWriter.js'),
    dist('store/mirror.js'),
    dist('store/textIndex.js'),
    dist('url/localPath.js'),
    dist('url/canonical.js'),
    import('better-sqlite3'),
  ]);
  for (const d of ['warc', 'mirror', 'tmp']) fs.mkdirSync(path.join(out, d), { recursive: true });
  const warc = await WarcWriter.open({ dir: path.join(out, 'warc'), prefix: 'floor', software: 'floor' });
  const textFile = path.join(out, 'text.sqlite');
  TextIndex.openWritable(textFile).release();
  const text = new TextWriter(textFile);
  const work = new DocumentWork(new Mirror(path.join(out, 'mirror'), path.join(out, 'tmp')), null, text);
  const db = new Database(path.join(out, 'catalogue.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT UNIQUE, status INTEGER, content_type TEXT, bytes INTEGER, local_path TEXT)');
  const insert = db.prepare('INSERT INTO urls (url, status, content_type, bytes, local_path) VALUES (?, ?, ?, ?, ?)');
  let rows = [];
  const commit = db.transaction((batch) => {
    for (const r of batch) insert.run(r);
  });
  let ticket = 0;
  // Memoised, as the crawl's ReferenceMemo does: the same navigation links recur on every page.
  const predicted = new Map();
  const targetOf = (url, hint) => {
    const key = `${hint}:${url}`;
    let p = predicted.get(key);
    if (p === undefined) predicted.set(key, (p = predictedLocalPath(url, hint)));
    return p;
  };
  return {
    async take(target, status, headers, wire, payload) {
      const url = canonicalize(`${opt.origin}${target}`);
      const contentType = headers['content-type'] === undefined ? null : String(headers['content-type']);
      const rawHeaders = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]]));
      await warc.writeExchange({ url, date: new Date(), ip: '127.0.0.1', httpVersion: '1.1', status, statusText: 'OK', responseHeaders: rawHeaders, payload: wire, requestHeaders: [['accept-encoding', opt['accept-encoding']]], path: target });
      const localPath = localPathFor(url, contentType);
      const kind = contentType?.startsWith('text/html') ? 'html' : contentType?.startsWith('text/css') ? 'css' : null;
      rows.push([url, status, contentType, payload.length, localPath]);
      if (rows.length >= 100) {
        commit(rows);
        rows = [];
      }
      if (kind === null) return work.write(localPath, payload);
      const t = ++ticket;
      const doc = work.prepare(t, { kind, body: payload, url, contentType, packOriginal: false, text: 'keep', textDigest: true });
      tokens += doc.links.length;
      const written = doc.links.map((l) => (l.canonical === null ? null : targetOf(l.canonical, l.typeHint === 'html' || l.typeHint === 'css' ? l.typeHint : null)));
      work.save(t, { localPath, written, index: { urlId: t, url, capture: 1, kind: 'html', fetchedAt: null } });
    },
    async close() {
      commit(rows);
      await work.flushText(true);
      await warc.close();
      db.close();
    },
  };
}
