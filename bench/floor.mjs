#!/usr/bin/env node
// The least a Node crawler must do for the bench site, as a yardstick for scenario 1: fetch every
// page and asset the manifest lists (known in advance, so no link discovery), over 8 kept-alive
// connections with the given Accept-Encoding (Harvest's), undo the compression, tokenise each HTML page with
// htmlparser2 and write each body to its own file. No scope, robots, politeness, WARC, catalogue or
// rewriting. Prints one JSON line: requests, wall and CPU seconds.
//
//   node bench/floor.mjs --origin http://127.0.0.1:8765 --manifest SITE/manifest.json --out DIR --accept-encoding 'gzip, deflate, br'
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { Pool } from 'undici';
import { manifestPaths } from './lib/site.mjs';

const { values: opt } = parseArgs({
  options: { origin: { type: 'string' }, manifest: { type: 'string' }, out: { type: 'string' }, 'accept-encoding': { type: 'string' }, connections: { type: 'string', default: '8' } },
});
if (!opt.origin || !opt.manifest || !opt.out || !opt['accept-encoding']) {
  console.error('usage: floor.mjs --origin URL --manifest FILE --out DIR --accept-encoding VALUE [--connections N]');
  process.exit(2);
}
const paths = manifestPaths(opt.manifest, opt.origin);
fs.mkdirSync(opt.out, { recursive: true });

const DECODERS = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync };
const connections = Number(opt.connections);
const pool = new Pool(opt.origin, { connections, pipelining: 1 });
let next = 0;
let tokens = 0;
let bytes = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (next < paths.length) {
      const i = next++;
      const { headers, body } = await pool.request({ path: paths[i], method: 'GET', headers: { 'accept-encoding': opt['accept-encoding'] } });
      const chunks = [];
      for await (const c of body) chunks.push(c);
      let payload = Buffer.concat(chunks);
      const decode = DECODERS[String(headers['content-encoding'] ?? '')];
      if (decode) payload = decode(payload);
      if (String(headers['content-type'] ?? '').startsWith('text/html')) {
        const parser = new Parser({ onattribute: () => tokens++ });
        parser.end(payload.toString('utf8'));
      }
      fs.writeFileSync(path.join(opt.out, String(i)), payload);
      bytes += payload.length;
    }
  }),
);
await pool.close();
const cpu = process.cpuUsage(cpu0);
const r2 = (x) => Math.round(x * 100) / 100;
console.log(JSON.stringify({ requests: paths.length, connections, wallSeconds: r2((performance.now() - t0) / 1000), cpuSeconds: r2((cpu.user + cpu.system) / 1e6), bytes, attributes: tokens }));
