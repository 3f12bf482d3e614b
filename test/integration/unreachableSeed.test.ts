/**
 * A seed whose host refuses connections: the crawl says so and why, on the command line, in
 * `stats` and `list`, and in the app's job; and every record that was not archived carries a reason.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost } from '../../electron/host/engineHost.js';
import { CLI } from '../helpers/benchSite.js';
import { listRecords, readArchiveStats, runHarvest, type HarvestRun } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** A loopback port nothing listens on: connections to it are refused. */
async function refusedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** What the crawl says of a refused seed: in an archivist's words, with the likely fix. */
const REFUSED = /nothing answered at 127\.0\.0\.1 on port \d+: check the port number \(most sites need none\), or whether the site is up/;
/** The record keeps the technical cause. */
const REFUSED_RECORD = /robots\.txt unreachable: network: connect ECONNREFUSED/;

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe('a seed that cannot be reached', () => {
  let work: string;
  let refused: string;
  let live: Server;
  let liveOrigin: string;
  let alone: HarvestRun;
  let mixed: HarvestRun;
  let missing: HarvestRun;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-unreachable-'));
    refused = await refusedOrigin();
    live = createServer((req, res) => {
      const p = req.url ?? '/';
      const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
      if (p === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      if (p === '/') {
        return html('<a href="/missing">404</a><a href="/r1">chain</a><a href="/busy">503</a><a href="/private/x">kept out</a><a href="http://elsewhere.invalid/">offsite</a>');
      }
      if (p === '/r1') return void res.writeHead(301, { location: '/r2' }).end();
      if (p === '/r2') return void res.writeHead(302, { location: '/ok.html' }).end();
      if (p === '/ok.html') return html('<title>ok</title>');
      if (p === '/busy') return void res.writeHead(503, 'Service Unavailable').end('busy');
      res.writeHead(404, 'Not Found').end();
    });
    liveOrigin = await listenOnLoopback(live);
    [alone, mixed, missing] = await Promise.all([
      runHarvest(['crawl', `${refused}/`, '--out', path.join(work, 'alone'), '--quiet', '--delay-ms', '0']),
      runHarvest(['crawl', `${liveOrigin}/`, `${refused}/`, '--out', path.join(work, 'mixed'), '--quiet', '--delay-ms', '0']),
      runHarvest(['crawl', `${liveOrigin}/missing`, '--out', path.join(work, 'missing'), '--quiet', '--delay-ms', '0']),
    ]);
  });

  after(() => {
    live?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a crawl whose only host refuses ends failed, and the CLI, stats and list say why', () => {
    assert.equal(alone.status, 1, alone.stderr);
    assert.match(alone.stderr, /crawl failed: nothing was harvested: http:\/\/127\.0\.0\.1:\d+\/: nothing answered/);
    assert.match(alone.stderr, REFUSED);
    assert.doesNotMatch(alone.stderr, /ECONNREFUSED|robots:unreachable/);

    const archive = path.join(work, 'alone');
    const stats: CrawlStats = readArchiveStats(archive);
    assert.equal(stats.state, 'failed');
    assert.match(stats.message ?? '', REFUSED);
    const text = spawnSync(process.execPath, [CLI, 'stats', archive], { encoding: 'utf8' });
    assert.match(text.stdout, /^failed: nothing was harvested: .*nothing answered/m);

    const [seed] = listRecords(archive);
    assert.equal(seed?.skipReason, 'robots:unreachable');
    assert.match(seed?.reason ?? '', REFUSED_RECORD);
    const list = spawnSync(process.execPath, [CLI, 'list', archive], { encoding: 'utf8' });
    assert.match(list.stdout, /^skipped\t\thttp:\/\/127\.0\.0\.1:\d+\/\tskipped: robots:unreachable: robots\.txt unreachable: /m);
  });

  it('a resume asks the unreachable site again, and finishes once it answers', async () => {
    const port = Number(new URL(refused).port);
    const back = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>back</title>'));
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      const archive = path.join(work, 'alone');
      const resumed = await runHarvest(['resume', archive, '--quiet']);
      assert.equal(resumed.status, 0, resumed.stderr);
      const [seed] = listRecords(archive);
      assert.equal(seed?.state, 'archived');
      assert.equal(readArchiveStats(archive).message, null);
    } finally {
      back.close();
    }
  });

  it('a crawl with one seed out of two unreachable finishes with errors that name it', () => {
    assert.equal(mixed.status, 0, mixed.stderr);
    assert.match(mixed.stderr, /^finished with errors: /m);
    assert.match(mixed.stderr, new RegExp(`^1 of 2 seeds could not be harvested: ${refused}/: nothing answered at `, 'm'));
    const stats = readArchiveStats(path.join(work, 'mixed'));
    assert.equal(stats.state, 'finished');
    assert.match(stats.message ?? '', REFUSED);
  });

  it('a seed that answers 404 is a failed harvest, not a finished one, and says to check the address', () => {
    assert.equal(missing.status, 1, missing.stderr);
    assert.match(missing.stderr, new RegExp(`crawl failed: nothing was harvested: ${liveOrigin}/missing: the server has no page at this address \\(HTTP 404\\): check the address`));
    assert.equal(readArchiveStats(path.join(work, 'missing')).state, 'failed');
  });

  it('every record that was not archived carries a reason', () => {
    const records = new Map<string, UrlRecord>(listRecords(path.join(work, 'mixed')).map((r) => [r.url, r]));
    for (const r of records.values()) {
      if (r.state === 'archived') continue;
      assert.ok(r.reason, `${r.url} (${r.state}) has no reason`);
    }
    const reason = (p: string) => records.get(`${liveOrigin}${p}`)?.reason;
    assert.equal(reason('/busy'), 'HTTP 503 Service Unavailable (gave up after 3 attempts)');
    assert.equal(reason('/missing'), 'HTTP 404 Not Found');
    assert.equal(reason('/r1'), `HTTP 301 redirect to ${liveOrigin}/r2`);
    assert.equal(reason('/r2'), `HTTP 302 redirect to ${liveOrigin}/ok.html`);
    assert.equal(reason('/private/x'), 'skipped: robots');
    assert.equal(records.get('http://elsewhere.invalid/')?.reason, 'skipped: scope');
  });

  it("the app's job shows the reason: failed, with the cause as its error", async () => {
    const host = startEngineHost({
      dataDir: path.join(work, 'data'),
      exporters: {},
      shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS },
      progressIntervalMs: 50,
    });
    try {
      const log = new EventLog();
      host.onEvent(log.listener);
      const job = value<JobSummary>(await host.handle('jobs.create', { job: { seeds: [`${refused}/`], politeness: { delayMs: 0 } } }));
      const failed = log.jobStatus(job.id, 'failed');
      value(await host.handle('jobs.start', { id: job.id }));
      const event = await failed;
      assert.ok(event.type === 'job');
      assert.match(event.job.error ?? '', REFUSED);
      const stats = value<CrawlStats>(await host.handle('jobs.stats', { id: job.id }));
      assert.match(stats.message ?? '', REFUSED);
    } finally {
      await host.shutdown();
    }
  });
});
