/**
 * A capture made by another process (`harvest recrawl` while the app is open): every screen's
 * figures, the job's and the library's, are of that capture, say which it is, and arrive as an
 * event without a reload.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { ArchiveSummary, JobSummary } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { listenOnLoopback } from '../helpers/loopback.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe('a capture made by another process', () => {
  let work: string;
  let site: Server;
  let host: EngineHost;
  let pages = 1;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-outside-'));
    site = createServer((req, res) => {
      const n = Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? (req.url === '/' ? 0 : NaN));
      if (!Number.isInteger(n) || n > pages) return void res.writeHead(404).end();
      const links = Array.from({ length: pages }, (_, i) => `<a href="/p${i + 1}">${i + 1}</a>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>p${n}</title>${n === 0 ? links : ''}`);
    });
    const origin = await listenOnLoopback(site);
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    const log = new EventLog();
    host.onEvent(log.listener);
    const job = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'Outside', seeds: [`${origin}/`], politeness: { delayMs: 0 } } }));
    const finished = log.jobStatus(job.id, 'finished');
    value(await host.handle('jobs.start', { id: job.id }));
    await finished;
  });

  after(async () => {
    await host?.shutdown();
    site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows on the job and in the library, names the capture, and is announced', async () => {
    const [before] = value<JobSummary[]>(await host.handle('jobs.list', {}));
    assert.equal(before?.capture, 1);
    assert.equal(before?.pages, 2);
    const log = new EventLog();
    host.onEvent(log.listener);
    const announced = log.next((e) => e.type === 'job' && e.job.capture === 2, 20_000);
    pages = 3;
    const recrawl = await runHarvest(['recrawl', before!.archiveDir, '--quiet']);
    assert.equal(recrawl.status, 0, recrawl.stderr);

    const event = await announced;
    assert.ok(event.type === 'job');
    assert.equal(event.job.pages, 4);
    assert.equal(event.job.counts?.archived, 4);
    const [after] = value<JobSummary[]>(await host.handle('jobs.list', {}));
    assert.equal(after?.capture, 2);
    assert.equal(after?.pages, 4);
    const [archive] = value<ArchiveSummary[]>(await host.handle('archives.list', {}));
    assert.equal(archive?.capture, 2);
    assert.equal(archive?.pages, 4);
  });
});
