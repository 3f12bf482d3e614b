import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HostEvent, Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import type { QaResultsPage, QaRunStatus } from '../../shared/qa.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { solidPng } from '../helpers/jsSite.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** A page whose script adds a large image a static crawl cannot see (a relative address, so the copy can serve it once archived). */
const HOME = `<!doctype html><html><head><title>Home</title></head><body style="margin:0"><h1>Home</h1><p><a href="/b">B</a></p>
<script>const i = new Image(); i.src = ['ba', 'nner.png'].join(''); i.width = 900; i.height = 500; document.body.appendChild(i);</script></body></html>`;
const FILES: Record<string, [string, string | Buffer]> = {
  '/': ['text/html', HOME],
  '/b': ['text/html', '<!doctype html><html><head><title>B</title></head><body><h1>Page B</h1><p>Plain.</p></body></html>'],
  '/banner.png': ['image/png', solidPng(900, 500, [160, 40, 200])],
};

describe('Patch missing resources from the app (qa.patch)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 300_000 }, () => {
  let work: string;
  let server: Server;
  let origin: string;
  let host: EngineHost;
  const log = new EventLog();
  let job: JobSummary;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-patch-host-'));
    server = createServer((req, res) => {
      const file = FILES[req.url ?? ''];
      if (!file) return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    origin = await listenOnLoopback(server);
    const archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    process.env.HARVEST_CHROMIUM = CHROMIUM;
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    host.onEvent(log.listener);
    job = value<JobSummary>(await host.handle('archives.open', { archiveDir: archive }));
  });

  after(async () => {
    await host?.shutdown();
    await new Promise((resolve) => server?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const statusOf = async () => value<JobSummary[]>(await host.handle('jobs.list', {})).find((j) => j.id === job.id)?.status;
  const ended = (e: HostEvent) => e.type === 'qa' && e.qa.jobId === job.id && e.qa.state !== 'running';

  it('is refused before an analysis, then fetches the missing image as a run of the job and analyses its page again', async () => {
    const refused = await host.handle('qa.patch', { id: job.id });
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error.message, /no page analysis to patch from/);

    const analysed = log.next(ended, 120_000);
    value(await host.handle('qa.start', { id: job.id }));
    assert.equal(((await analysed) as Extract<HostEvent, { type: 'qa' }>).qa.state, 'done');
    const before = value<QaResultsPage>(await host.handle('qa.results', { id: job.id }));
    assert.equal(before.withMissing, 1);
    // The app compares both copies, as harvest qa does by default, and the patch analyses again alike.
    const homeRow = (page: QaResultsPage) => page.rows.find((r) => r.url === `${origin}/`);
    assert.deepEqual(Object.keys(homeRow(before)?.copies ?? {}).sort(), ['mirror', 'replay']);
    assert.deepEqual(homeRow(before)?.copies.replay?.missing.map((m) => m.url), [`${origin}/banner.png`]);

    const patched = log.next(ended, 180_000);
    const started = value<QaRunStatus>(await host.handle('qa.patch', { id: job.id }));
    assert.equal(started.patch?.phase, 'fetching');
    // The fetching is the job's own run: the library shows it running.
    assert.equal(await statusOf(), 'running');
    const done = ((await patched) as Extract<HostEvent, { type: 'qa' }>).qa;
    assert.equal(done.state, 'done', done.error ?? '');
    assert.ok(log.events.some((e) => e.type === 'qa' && e.qa.patch?.phase === 'analysing'), 'an analysing phase was reported');
    assert.equal(done.patch?.phase, 'done');
    const report = done.patch!.report!;
    assert.deepEqual(
      report.resources.map((r) => [r.url, r.outcome]),
      [[`${origin}/banner.png`, 'fetched']],
    );
    assert.equal(report.pages.length, 1);
    assert.equal(report.pages[0]!.url, `${origin}/`);
    assert.deepEqual([report.pages[0]!.before.missing, report.pages[0]!.after.missing], [1, 0]);
    assert.ok(report.pages[0]!.after.screenshotMatch! > report.pages[0]!.before.screenshotMatch!, JSON.stringify(report.pages[0]));
    assert.equal(await statusOf(), 'finished');
    const afterPatch = value<QaResultsPage>(await host.handle('qa.results', { id: job.id }));
    assert.equal(afterPatch.withMissing, 0);
    assert.deepEqual(homeRow(afterPatch)?.copies.replay?.missing, [], 'the replay shows the fetched image');
  });
});
