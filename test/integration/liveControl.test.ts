import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Archive } from '../../electron/engine/store/archive.js';
import { CLI } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** 400 pages answered after 150 ms each, each linking the next ten: a crawl that runs long enough to steer. */
function slowSite(): { server: Server; inFlight: () => number; peaks: number[]; requests: () => number } {
  let inFlight = 0;
  let requests = 0;
  const peaks: number[] = [];
  const server = createServer((req, res) => {
    requests++;
    inFlight++;
    peaks.push(inFlight);
    setTimeout(() => {
      inFlight--;
      const n = Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      const links = Array.from({ length: 10 }, (_, i) => n * 10 + i + 1).filter((k) => k < 400);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links.map((k) => `<a href="/p${k}">${k}</a>`).join(' ')}</body></html>`);
    }, 150);
  });
  return { server, inFlight: () => inFlight, peaks, requests: () => requests };
}

describe('harvest control', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-live-control-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('raises a running crawl from 2 to 6 connections per host within seconds, and keeps it with the job', async () => {
    const site = slowSite();
    const origin = await listenOnLoopback(site.server);
    const archive = path.join(work, 'a');
    try {
      const crawl = spawn(process.execPath, [CLI, 'crawl', `${origin}/p0`, '--out', archive, '--connections', '2', '--delay-ms', '0', '--quiet'], { stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => crawl.once('exit', resolve));
      while (site.requests() < 20) await new Promise((r) => setTimeout(r, 50));
      assert.equal(Math.max(...site.peaks), 2, 'two connections before the change');
      const before = site.peaks.length;
      const control = await runHarvest(['control', archive, '--connections', '6']);
      assert.equal(control.status, 0, control.stderr);
      // It says what the change does: with no delay, the connections are the limit.
      assert.match(control.stdout, /the running crawl took the change: now 6 connections per host; nothing spaces the requests, so the connections limit each host: up to 6 requests at a time/);
      while (site.peaks.length < before + 60 && crawl.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const after = site.peaks.slice(before);
      assert.equal(Math.max(...after), 6, `at most 6 at once after the change, and 6 reached: ${after.join(',')}`);
      crawl.kill('SIGINT');
      assert.equal(await exited, 130, 'paused by Ctrl-C');
      const a = Archive.open(archive, { readonly: true });
      try {
        assert.equal(a.job.politeness.perHostConnections, 6, 'kept with the job for the next run');
        assert.equal(a.job.politeness.delayMs, 0);
      } finally {
        a.close();
      }
      // With no crawl running, the change is for the next run.
      const idle = await runHarvest(['control', archive, '--adaptive-delay']);
      assert.equal(idle.status, 0, idle.stderr);
      assert.match(idle.stdout, /no crawl is running .*6 connections per host, adaptive delay: the adaptive delay .*limits each host to about one request at a time.*set a fixed delay/);
      // When the delay, not the connections, limits the rate, the answer says so.
      const floor = await runHarvest(['control', archive, '--delay-ms', '250']);
      assert.equal(floor.status, 0, floor.stderr);
      assert.match(floor.stdout, /6 connections per host, 250 ms between requests: the 250 ms delay between requests limits each host to 4 requests\/s; the 6 connections limit it only where a response takes longer than 1,500 ms/);
      const bad = await runHarvest(['control', archive, '--connections', '0']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--connections/);
      const clusterOnly = await runHarvest(['control', archive, '--workers', '2']);
      assert.equal(clusterOnly.status, 2);
      assert.match(clusterOnly.stderr, /--workers, --all-workers, --pause and --resume are for a cluster harvest/);
      const pauseLocal = await runHarvest(['control', archive, '--pause']);
      assert.equal(pauseLocal.status, 2);
      assert.match(pauseLocal.stderr, /are for a cluster harvest/);
      const nothing = await runHarvest(['control', '--db', 'postgres://127.0.0.1:1/none']);
      assert.equal(nothing.status, 2);
      assert.match(nothing.stderr, /give --connections, --delay-ms, --adaptive-delay, --workers, --all-workers, --pause or --resume/);
      const both = await runHarvest(['control', '--db', 'postgres://127.0.0.1:1/none', '--pause', '--resume']);
      assert.equal(both.status, 2);
      assert.match(both.stderr, /give --pause or --resume, not both/);
    } finally {
      site.server.close();
    }
  });
});
