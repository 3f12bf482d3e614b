import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HostEvent, Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import type { QaPageDetail, QaResultsPage, QaRunStatus } from '../../shared/qa.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const PAGE = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/s.css"></head><body><h1>${title}</h1>${body}<p><a href="/">home</a> <a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></p></body></html>`;
const SITE: Record<string, [string, string]> = {
  '/': ['text/html', PAGE('Home', '<p>Welcome to the small site, with three more pages.</p>')],
  '/a': ['text/html', PAGE('Page A', '<p>The first page says something about apples.</p>')],
  '/b': ['text/html', PAGE('Page B', '<p>The second page says something about bananas.</p>')],
  '/c': ['text/html', PAGE('Page C', '<p>The third page says something about cherries.</p>')],
  '/s.css': ['text/css', 'body { background: #234; color: #fed; font: 20px serif } h1 { background: #c33; padding: 40px }'],
};

describe('page analysis from the app (qa.* commands)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 300_000 }, () => {
  let work: string;
  let server: Server;
  let origin: string;
  let host: EngineHost;
  const log = new EventLog();
  let job: JobSummary;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-host-'));
    server = createServer((req, res) => {
      const page = SITE[req.url ?? ''];
      if (!page) return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
    });
    origin = await listenOnLoopback(server);
    const archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    // The offline copy loses its stylesheet: every page's copy looks different and lacks it.
    rmSync(path.join(archive, 'mirror', new URL(origin).host.replace(':', '_'), 's.css'));
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

  const ended = (e: HostEvent) => e.type === 'qa' && e.qa.jobId === job.id && e.qa.state !== 'running';

  it('pauses an analysis and resumes it with a second start, keeping what the first did', async () => {
    const first = log.next(ended, 120_000);
    const started = value<QaRunStatus>(await host.handle('qa.start', { id: job.id, limit: 1 }));
    assert.equal(started.state, 'running');
    // The analysis holds the catalogue; the library's and viewer's reads go through it meanwhile.
    const listed = value<{ total: number }>(await host.handle('archives.pages', { id: job.id }));
    assert.equal(listed.total, 4);
    // The archive is held: a crawl cannot start on it meanwhile, and a second analysis is refused.
    const again = await host.handle('qa.start', { id: job.id });
    assert.equal(again.ok, false, JSON.stringify(log.events.filter((e) => e.type === 'qa')));
    const run1 = ((await first) as Extract<HostEvent, { type: 'qa' }>).qa;
    assert.equal(run1.state, 'done', run1.error ?? '');
    assert.equal(run1.done, 1);

    // A pause right after the start: results so far stay, and the next start resumes.
    const paused = log.next(ended, 120_000);
    value(await host.handle('qa.start', { id: job.id }));
    value(await host.handle('qa.pause', { id: job.id }));
    const run2 = ((await paused) as Extract<HostEvent, { type: 'qa' }>).qa;
    assert.equal(run2.state, 'paused');
    assert.equal(value<QaRunStatus>(await host.handle('qa.status', { id: job.id })).state, 'paused');

    const resumed = log.next(ended, 180_000);
    value(await host.handle('qa.start', { id: job.id }));
    const run3 = ((await resumed) as Extract<HostEvent, { type: 'qa' }>).qa;
    assert.equal(run3.state, 'done', run3.error ?? '');
    assert.ok(run3.kept >= 1, `kept ${run3.kept}`);
    assert.equal(run3.kept + run3.done, 4);
    const progress = log.events.filter((e): e is Extract<HostEvent, { type: 'qa' }> => e.type === 'qa' && e.qa.state === 'running' && e.qa.done > 0);
    assert.ok(progress.length > 0, 'progress events while running');
  });

  it('reads the results back worst first, with each page’s captures, texts and missing stylesheet', async () => {
    const all = value<QaResultsPage>(await host.handle('qa.results', { id: job.id }));
    assert.equal(all.total, 4);
    assert.equal(all.pages, 4);
    assert.equal(all.histogram.reduce((a, b) => a + b, 0), 4);
    const scores = all.rows.map((r) => Math.min(r.textMatch!, r.screenshotMatch!));
    assert.deepEqual([...scores].sort((a, b) => a - b), scores, 'worst first');
    assert.equal(all.withMissing, 4);
    assert.deepEqual(all.captures, [1], 'the captures with an analysis');
    const asked = value<QaResultsPage>(await host.handle('qa.results', { id: job.id, capture: 1 }));
    assert.deepEqual([asked.capture, asked.total], [1, 4]);
    const paged = value<QaResultsPage>(await host.handle('qa.results', { id: job.id, offset: 1, limit: 2 }));
    assert.deepEqual(
      paged.rows.map((r) => r.url),
      all.rows.slice(1, 3).map((r) => r.url),
    );

    const detail = value<QaPageDetail>(await host.handle('qa.page', { id: job.id, url: `${origin}/a` }));
    assert.ok(detail.result.missing.some((m) => m.url === `${origin}/s.css` && m.type === 'stylesheet'), JSON.stringify(detail.result.missing));
    assert.match(detail.reference.image ?? '', /^data:image\/png;base64,/);
    assert.match(detail.copy.image ?? '', /^data:image\/png;base64,/);
    assert.notEqual(detail.reference.image, detail.copy.image, 'the copy without its stylesheet looks different');
    assert.match(detail.reference.text ?? '', /The first page says something about apples\./);
    assert.match(detail.copy.text ?? '', /The first page says something about apples\./);
    // Kept in the archive folder, beside the thumbnails.
    const capturesDir = path.join(job.archiveDir, 'qa', '1');
    assert.ok(statSync(capturesDir).isDirectory());
    assert.equal(value<QaPageDetail | null>(await host.handle('qa.page', { id: job.id, url: `${origin}/nowhere` })), null);
  });
});
