#!/usr/bin/env node
// Peak memory of a crawl of a hostile site at Harvest's default limits (100 MB bodies, 120 s
// deadline): N ordinary pages, and linked from the first K of them one of each hostile kind
// (bomb: a 50 MB gzip bomb; bigd: 8 MB with Content-Length; bigc: 8 MB chunked; deep: 50,000 nested
// elements; busy: 429 with Retry-After first; loop: a redirect chain). Prints one JSON line: exit
// code, wall seconds and the crawler's peak RSS (VmHWM).
//   node bench/hostileMemory.mjs [--pages 500] [--hostile 20] [--kinds bomb,bigd] [--cli dist/electron/bundle/harvest.js]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { launchCommand } from './lib/crawlers.mjs';

const { values: o } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    hostile: { type: 'string', default: '20' },
    kinds: { type: 'string', default: 'bomb,bigd,bigc,deep,busy,loop' },
    cli: { type: 'string', default: path.join(import.meta.dirname, '..', 'dist', 'electron', 'bundle', 'harvest.js') },
  },
});
const N = Number(o.pages);
const K = Number(o.hostile);
const kinds = o.kinds.split(',');
const bomb = gzipSync(Buffer.alloc(50 << 20), { level: 9 });
const big = Buffer.alloc(8 << 20, 'a');
const deep = `<html><head><title>Deep</title><body>${'<div>'.repeat(50_000)}deep</body></html>`;
const busy = new Set();
const page = (i) => {
  const links = [];
  for (let j = 1; j <= 20; j++) links.push(`<a href="/p/${(i * 7 + j * 13) % N}.html">p${j}</a>`);
  if (i < K) for (const k of kinds) links.push(`<a href="/${k}/${i}">${k}</a>`);
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1>${'<p>Some text of the page.</p>'.repeat(150)}${links.join('\n')}</body></html>`;
};
const server = createServer((req, res) => {
  const [, kind, id] = (req.url ?? '/').split('/');
  const html = (body) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  switch (kind) {
    case '': return html(page(0));
    case 'p': return html(page(Number.parseInt(id, 10)));
    case 'bomb': return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': bomb.length }).end(bomb);
    case 'bigd': return res.writeHead(200, { 'content-type': 'text/html', 'content-length': big.length }).end(big);
    case 'bigc': return html(big);
    case 'deep': return html(deep);
    case 'busy':
      if (!busy.has(id)) {
        busy.add(id);
        return res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      }
      return html(page(1));
    case 'loop': return res.writeHead(302, { location: `/loop/${id}x`.slice(0, 60) }).end();
    default: return res.writeHead(404).end('not found');
  }
});
server.on('clientError', (_e, socket) => socket.destroy());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const work = mkdtempSync(path.join(tmpdir(), 'harvest-hostile-memory-'));
const started = Date.now();
const [bin, ...binArgs] = launchCommand(o.cli);
const child = spawn(bin, [...binArgs, 'crawl', `${origin}/`, '--out', path.join(work, 'archive'), '--quiet', '--delay-ms', '0', '--connections', '8'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
let peakKiB = 0;
const sampler = setInterval(() => {
  try {
    peakKiB = Math.max(peakKiB, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]));
  } catch {
    // exited between samples
  }
}, 100);
const code = await new Promise((resolve) => child.on('exit', resolve));
clearInterval(sampler);
server.closeAllConnections();
server.close();
rmSync(work, { recursive: true, force: true });
console.log(JSON.stringify({ code, wallS: (Date.now() - started) / 1000, peakMiB: Math.round(peakKiB / 102.4) / 10, pages: N, hostile: K, kinds }));
