import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../../shared/contract.js';
import type { JobSummary } from '../../../shared/appViews.js';
import { DataDir, DataDirInUseError } from '../../../electron/host/dataDir.js';
import { WEB_SHELL_ACTIONS } from '../../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../../electron/host/engineHost.js';
import { startBenchSite, type BenchSite } from '../../helpers/benchSite.js';
import { EventLog } from '../../helpers/hostEvents.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe('job service', () => {
  let work: string;
  let site: BenchSite;
  const hosts: EngineHost[] = [];

  const newHost = (dataDir: string): { host: EngineHost; log: EventLog } => {
    const host = startEngineHost({ dataDir, exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS }, progressIntervalMs: 50 });
    hosts.push(host);
    const log = new EventLog();
    host.onEvent(log.listener);
    return { host, log };
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-jobs-'));
    site = await startBenchSite({ pages: 150, workDir: work, latencyMs: 5 });
  });

  after(async () => {
    for (const h of hosts) await h.shutdown();
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs a job: progress events, pause, resume, finished, then answers queries from the archive', async () => {
    const { host, log } = newHost(path.join(work, 'data-run'));
    const job = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'Site', seeds: [`${site.origin}/`], limits: { maxPages: 20 }, politeness: { perHostConnections: 2, delayMs: 0 } } }));
    assert.equal(job.status, 'new');
    assert.equal(job.job.limits.maxDepth, null, 'defaults are filled in');

    const running = log.jobStatus(job.id, 'running');
    value(await host.handle('jobs.start', { id: job.id }));
    await running;
    await log.next((e) => e.type === 'progress' && e.id === job.id && e.progress.counts.archived > 0);
    const live = value<{ counts: { discovered: number } }>(await host.handle('jobs.stats', { id: job.id }));
    assert.ok(live.counts.discovered > 0, 'the worker answers stats while it crawls');

    const paused = log.jobStatus(job.id, 'paused');
    const pausing = value<JobSummary>(await host.handle('jobs.pause', { id: job.id }));
    const pausedEvent = await paused;
    assert.equal(pausing.status, 'pausing');
    assert.ok(pausedEvent.type === 'job' && pausedEvent.job.revision > pausing.revision, 'the later change has the higher revision');
    const atPause = value<{ byState: { queued: number } }>(await host.handle('jobs.stats', { id: job.id }));
    assert.ok(atPause.byState.queued > 0, 'paused before the end, with work left');

    const finished = log.jobStatus(job.id, 'finished');
    value(await host.handle('jobs.resume', { id: job.id }));
    await finished;

    const progress = log.events.filter((e) => e.type === 'progress' && e.id === job.id).length;
    const urlBatches = log.events.filter((e) => e.type === 'urls' && e.id === job.id);
    const urlEvents = urlBatches.reduce((n, e) => n + (e.type === 'urls' ? e.events.length : 0), 0);
    assert.ok(urlBatches.length <= progress + 2, 'URL events come at most one batch per progress tick');
    assert.ok(urlEvents > urlBatches.length, 'batches hold several URLs');

    const stats = value<{ state: string; byState: { queued: number; archived: number } }>(await host.handle('jobs.stats', { id: job.id }));
    assert.equal(stats.state, 'finished');
    assert.equal(stats.byState.queued, 0);
    const urls = value<{ total: number; rows: { state: string }[] }>(await host.handle('jobs.urls', { id: job.id, state: 'archived', limit: 5 }));
    assert.equal(urls.total, stats.byState.archived);
    assert.equal(urls.rows.length, 5);
    const pages = value<{ total: number; rows: { url: string; localPath: string }[] }>(await host.handle('archives.pages', { id: job.id }));
    assert.ok(pages.total > 10);
    const first = pages.rows[0]!;
    const found = value<{ url: string } | null>(await host.handle('archives.lookup', { id: job.id, localPath: first.localPath }));
    assert.equal(found?.url, first.url);
    const archives = value<{ pages: number; bytesOnDisk: number; status: string }[]>(await host.handle('archives.list', {}));
    assert.equal(archives[0]!.status, 'finished');
    assert.equal(archives[0]!.pages, pages.total);
    assert.ok(archives[0]!.bytesOnDisk > 0);
    const again = await host.handle('jobs.start', { id: job.id });
    assert.equal(!again.ok && again.error.code, 'conflict');
  });

  it("keeps the institution's contact in the settings: new jobs and the form's defaults take it, with no contact before", async () => {
    const dataDir = path.join(work, 'data-settings');
    let { host } = newHost(dataDir);
    const before = value<JobSummary>(await host.handle('jobs.create', { job: { seeds: ['http://127.0.0.1:9/'] } }));
    assert.equal(before.job.contactUrl, null, 'no default contact pointing at anyone else');
    assert.equal((await host.handle('settings.set', { settings: { contact: 'not a contact' } })).ok, false);
    value(await host.handle('settings.set', { settings: { contact: 'mailto:archive@library.example' } }));
    const info = value<{ defaults: { contactUrl: string | null } }>(await host.handle('app.info', {}));
    assert.equal(info.defaults.contactUrl, 'mailto:archive@library.example');
    const after = value<JobSummary>(await host.handle('jobs.create', { job: { seeds: ['http://127.0.0.1:9/'] } }));
    assert.equal(after.job.contactUrl, 'mailto:archive@library.example');
    const own = value<JobSummary>(await host.handle('jobs.create', { job: { seeds: ['http://127.0.0.1:9/'], contactUrl: 'https://dept.example/' } }));
    assert.equal(own.job.contactUrl, 'https://dept.example/', 'a job may name its own');
    await host.shutdown();
    ({ host } = newHost(dataDir));
    assert.deepEqual(value(await host.handle('settings.get', {})), { contact: 'mailto:archive@library.example' }, 'kept across launches');
  });

  it('answers invalid jobs with field issues, unknown commands and bad arguments with invalid-args', async () => {
    const { host } = newHost(path.join(work, 'data-invalid'));
    const r = await host.handle('jobs.create', { job: { seeds: ['ftp://x'], limits: { maxPages: -1 } } });
    assert.ok(!r.ok);
    assert.equal(r.error.code, 'invalid-job');
    assert.deepEqual(r.error.issues?.map((i) => i.path).sort(), ['limits.maxPages', 'seeds.0']);
    const unknown = await host.handle('jobs.explode', {});
    assert.equal(!unknown.ok && unknown.error.code, 'invalid-args');
    const bad = await host.handle('jobs.start', { id: 7 });
    assert.equal(!bad.ok && bad.error.code, 'invalid-args');
    const missing = await host.handle('jobs.start', { id: 'nope' });
    assert.equal(!missing.ok && missing.error.code, 'not-found');
    const list = value<unknown[]>(await host.handle('jobs.list', {}));
    assert.equal(list.length, 0);
  });

  it('takes the data folder exclusively and marks a job whose host died while it ran as interrupted', async () => {
    const dir = path.join(work, 'data-crash');
    const { host } = newHost(dir);
    assert.throws(() => DataDir.open(dir), DataDirInUseError);
    const job = value<JobSummary>(await host.handle('jobs.create', { job: { seeds: [`${site.origin}/`], limits: { maxPages: 5 }, politeness: { delayMs: 0 } } }));
    await host.shutdown();
    // What a host that died mid-crawl leaves behind: the job still marked running.
    const data = DataDir.open(dir);
    data.saveJobs(data.loadJobs().map((r) => ({ ...r, status: 'running' })));
    data.release();

    const { host: next, log } = newHost(dir);
    const [summary] = value<JobSummary[]>(await next.handle('jobs.list', {}));
    assert.equal(summary!.status, 'interrupted');
    const finished = log.jobStatus(job.id, 'finished');
    value(await next.handle('jobs.resume', { id: job.id }));
    await finished;
  });

  it('runs two jobs at once, each in its own worker', async () => {
    const { host, log } = newHost(path.join(work, 'data-two'));
    const a = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'A', seeds: [`${site.origin}/`], limits: { maxPages: 10 }, politeness: { delayMs: 0 } } }));
    const b = value<JobSummary>(await host.handle('jobs.create', { job: { name: 'B', seeds: [`${site.origin}/`], limits: { maxPages: 10 }, politeness: { delayMs: 0 } } }));
    assert.notEqual(a.archiveDir, b.archiveDir);
    const done = Promise.all([log.jobStatus(a.id, 'finished'), log.jobStatus(b.id, 'finished')]);
    value(await host.handle('jobs.start', { id: a.id }));
    value(await host.handle('jobs.start', { id: b.id }));
    const statuses = value<JobSummary[]>(await host.handle('jobs.list', {})).map((j) => j.status);
    assert.deepEqual(statuses, ['running', 'running']);
    await done;
    for (const id of [a.id, b.id]) {
      const s = value<{ counts: { archived: number } }>(await host.handle('jobs.stats', { id }));
      assert.ok(s.counts.archived >= 10);
    }
    const dup = value<JobSummary>(await host.handle('jobs.duplicate', { id: a.id }));
    assert.equal(dup.job.name, 'A (copy)');
    value(await host.handle('jobs.delete', { id: dup.id, deleteArchive: true }));
    assert.equal(value<JobSummary[]>(await host.handle('jobs.list', {})).length, 2);
  });
});
