// Scenario 3's smallest crawl: one page, from spawn to exit, as an archivist's quick check runs it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { harvestCommand } from './crawlers.mjs';
import { median, parseTimeV, round } from './measure.mjs';

const RUNS = 5;
const PAGE = '<!doctype html><html><head><title>One page</title></head><body><p>One page, nothing else.</p></body></html>\n';

/**
 * A one-page site on `port`, crawled RUNS times with the bench's settings: peak RSS (the whole
 * process, every thread), and from spawn the first request the server sees (robots.txt: the crawl
 * has started), the page's request, and the exit; medians and every run.
 */
export async function onePageCrawl(ctx, port) {
  let firstMs = null;
  let pageMs = null;
  let t0 = 0;
  const server = http.createServer((req, res) => {
    const at = performance.now() - t0;
    firstMs ??= at;
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    pageMs ??= at;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dir = path.join(ctx.out, 'scenario3-one-page');
  fs.mkdirSync(dir, { recursive: true });
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const archive = path.join(dir, 'archive');
      fs.rmSync(archive, { recursive: true, force: true });
      const timeFile = path.join(dir, 'time.txt');
      const cmd = harvestCommand(ctx.root, ['crawl', `http://127.0.0.1:${port}/`, '--out', archive]);
      firstMs = pageMs = null;
      t0 = performance.now();
      const code = await new Promise((resolve) => spawn('/usr/bin/time', ['-v', '-o', timeFile, ...cmd], { stdio: 'ignore' }).on('exit', resolve));
      const exitMs = performance.now() - t0;
      const t = parseTimeV(fs.readFileSync(timeFile, 'utf8'));
      runs.push({ exit: code, peakRssMiB: t.maxRssKiB ? round(t.maxRssKiB / 1024, 1) : null, firstRequestSeconds: secs(firstMs), pageRequestSeconds: secs(pageMs), exitSeconds: secs(exitMs) });
    }
  } finally {
    server.close();
    fs.rmSync(path.join(dir, 'archive'), { recursive: true, force: true });
  }
  return {
    runs,
    peakRssMiB: median(runs.map((r) => r.peakRssMiB)),
    firstRequestSeconds: median(runs.map((r) => r.firstRequestSeconds)),
    pageRequestSeconds: median(runs.map((r) => r.pageRequestSeconds)),
    exitSeconds: median(runs.map((r) => r.exitSeconds)),
    ok: runs.every((r) => r.exit === 0 && r.pageRequestSeconds !== null),
  };
}

const secs = (ms) => (ms === null ? null : round(ms / 1000, 3));
