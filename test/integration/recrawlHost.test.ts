import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary, ChangeReport } from '../../shared/captures.js';
import type { Reply } from '../../shared/contract.js';
import type { CaptureContentReply, JobSummary } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { canonicalize } from '../../electron/engine/url/canonical.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { EventLog } from '../helpers/hostEvents.js';
import { readRaw } from '../helpers/warcReadBack.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { createServer } from 'node:http';

const IDENTICAL_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
import { spawnSync } from 'node:child_process';
import { CLI } from '../helpers/benchSite.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe('re-crawls from the app and against a server without validators', () => {
  let work: string;
  const sites: BenchSite[] = [];
  const hosts: EngineHost[] = [];

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-recrawl-host-'));
  });

  after(async () => {
    for (const h of hosts) await h.shutdown();
    for (const s of sites) await s.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('marks identical payloads unchanged and stores none again when the server sends no validators', async () => {
    // A server that sends neither ETag nor Last-Modified and ignores conditional requests.
    const pages: Record<string, [string, string]> = {
      '/': ['text/html', '<html><head><link rel="stylesheet" href="/s.css"></head><body><a href="/a">A</a> <a href="/b">B</a><img src="/i.png"></body></html>'],
      '/a': ['text/html', '<html><body><p>Page A</p><a href="/b">B</a></body></html>'],
      '/b': ['text/html', '<html><body><p>Page B</p><a href="/">home</a></body></html>'],
      '/s.css': ['text/css', 'body { background: url(/i.png) }'],
      '/i.png': ['image/png', 'not really a png, but bytes all the same'],
    };
    let conditional = 0;
    const server = createServer((req, res) => {
      if (req.headers['if-none-match'] || req.headers['if-modified-since']) conditional++;
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
    });
    const origin = await listenOnLoopback(server);
    try {
      const archive = path.join(work, 'plain');
      const first = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
      assert.equal(first.status, 0, first.stderr);
      const before1 = new Set(readdirSync(path.join(archive, 'warc')));
      const second = await runHarvest(['recrawl', archive, '--quiet']);
      assert.equal(second.status, 0, second.stderr);
      assert.equal(conditional, 0, 'no validators were given, so none were sent back');
      const out = spawnSync(process.execPath, [CLI, 'changes', archive, '--json'], { encoding: 'utf8' });
      const report = JSON.parse(out.stdout) as ChangeReport;
      // The five files (robots.txt is fetched beside the URL log, not in it).
      assert.deepEqual(report.counts, { new: 0, restored: 0, changed: 0, markupOnly: 0, unchanged: 5, notModified: 0, removed: 0, httpErrors: 0, failed: 0 });
      const stored: (string | null)[] = [];
      let revisits = 0;
      for (const f of readdirSync(path.join(archive, 'warc')).filter((f) => f.endsWith('.warc.gz') && !before1.has(f))) {
        for (const r of await readRaw(path.join(archive, 'warc', f))) {
          if (r.type === 'response' && !r.header('WARC-Target-URI')!.endsWith('/robots.txt')) stored.push(r.header('WARC-Target-URI'));
          if (r.type === 'revisit' && r.header('WARC-Profile') === IDENTICAL_PROFILE) revisits++;
        }
      }
      assert.deepEqual(stored, [], 'a payload was stored a second time');
      // Robots.txt's 404 body is the same payload too.
      assert.equal(revisits, 6);
    } finally {
      server.close();
    }
  });

  it('runs a job again from the app, reports what changed and reads the first capture of a changed page', async () => {
    const site = await startBenchSite({ pages: 150, workDir: work, validators: true, live: true });
    sites.push(site);
    const host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS }, progressIntervalMs: 50 });
    hosts.push(host);
    const log = new EventLog();
    host.onEvent(log.listener);
    const job = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'Again', seeds: [`${site.origin}/`], limits: { maxDepth: 1 }, politeness: { perHostConnections: 4, delayMs: 0 } } }));
    const finished = () => log.jobStatus(job.id, 'finished');
    let done = finished();
    value(await host.handle('jobs.start', { id: job.id }));
    await done;

    const page = site.manifest.pages.find((p) => p.depth === 1 && p.file.endsWith('.html') && (p.charset ?? 'utf-8') === 'utf-8')!;
    const file = path.join(site.dir, page.file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('</body>', '<p>Revised for the second capture.</p></body>'));
    const url = canonicalize(site.origin + page.url)!;

    done = finished();
    value(await host.handle('jobs.recrawl', { id: job.id }));
    await done;
    const captures = value<CaptureSummary[]>(await host.handle('archives.captures', { id: job.id }));
    assert.deepEqual(captures.map((c) => [c.id, c.state]), [[1, 'finished'], [2, 'finished']]);
    const report = value<ChangeReport>(await host.handle('archives.changes', { id: job.id }));
    assert.ok(report.changed.includes(url), `${url} not among ${report.changed.join(' ')}`);
    assert.ok(report.counts.notModified > 50);

    const then = value<CaptureContentReply>(await host.handle('archives.captureContent', { id: job.id, url, capture: 1 }));
    const now = value<CaptureContentReply>(await host.handle('archives.captureContent', { id: job.id, url, capture: 2 }));
    assert.ok(then.text !== null && then.text.length > 100 && !then.text.includes('Revised for the second capture'));
    assert.ok(now.text?.includes('Revised for the second capture'));
    assert.ok(then.source?.includes(`BID:${page.id}`), 'the first capture is the page as it was');
    const refused = await host.handle('jobs.recrawl', { id: job.id });
    assert.ok(refused.ok, 'a finished job runs again');
    await finished();
  });
});
