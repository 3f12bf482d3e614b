import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary } from '../../shared/captures.js';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { EventLog } from '../helpers/hostEvents.js';
import { listenOnLoopback } from '../helpers/loopback.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const local = (y: number, m: number, d: number, hh: number, mm = 0): number => new Date(y, m - 1, d, hh, mm).getTime();
const iso = (ms: number): string => new Date(ms).toISOString();

describe('scheduled runs through the host', () => {
  let work: string;
  let origin: string;
  /** While set, /slow answers only when the test releases it: the crawl stays running meanwhile. */
  let hold: { release: () => void; wait: Promise<void> } | null = null;
  let homeRequests = 0;
  const server = createServer((req, res) => {
    if (req.url === '/') {
      homeRequests++;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><a href="/a">A</a> <a href="/slow">Slow</a></body></html>');
    }
    if (req.url === '/a') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>A</p></body></html>');
    if (req.url === '/slow') {
      const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>Slow</p></body></html>');
      return void (hold ? hold.wait.then(answer) : answer());
    }
    res.writeHead(404).end();
  });
  const holdSlowPage = (): (() => void) => {
    let release!: () => void;
    const wait = new Promise<void>((r) => (release = r));
    hold = { release, wait };
    return () => {
      hold = null;
      release();
    };
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-schedules-'));
    origin = await listenOnLoopback(server);
  });
  after(() => {
    server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const open = (now: { t: number }): { host: EngineHost; log: EventLog } => {
    const host = startEngineHost({
      dataDir: path.join(work, 'data'),
      exporters: {},
      shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS },
      progressIntervalMs: 50,
      clock: { now: () => now.t },
    });
    const log = new EventLog();
    host.onEvent(log.listener);
    return { host, log };
  };

  it('runs slots missed while closed once at the next start, and a slot that comes during a run once it ends', async () => {
    const clock = { t: local(2026, 5, 1, 12) };
    const first = open(clock);
    const job = value<JobSummary>(await first.host.handle('jobs.create', { job: { name: 'Daily', seeds: [`${origin}/`], politeness: { delayMs: 0 } } }));
    const bad = await first.host.handle('jobs.setSchedule', { id: job.id, schedule: { every: 1, unit: 'fortnights', at: '3am', from: '2026-05-01' } });
    assert.equal(bad.ok, false, 'an invalid schedule is refused');
    const set = value<JobSummary>(await first.host.handle('jobs.setSchedule', { id: job.id, schedule: { every: 1, unit: 'days', at: '03:00', from: '2026-05-01' } }));
    // 03:00 today has gone by: the first run is tomorrow's.
    assert.deepEqual(set.schedule && { next: set.schedule.nextRunAt, due: set.schedule.due }, { next: iso(local(2026, 5, 2, 3)), due: false });
    assert.equal(set.status, 'new');
    await first.host.shutdown();

    // Closed until May 5, 10:00: the slots of May 2, 3, 4 and 5 went by. One run, at start.
    clock.t = local(2026, 5, 5, 10);
    const second = open(clock);
    try {
      const { host, log } = second;
      let done = log.jobStatus(job.id, 'finished');
      const started = host.jobs.get(job.id);
      assert.equal(started.status, 'running', 'the missed run started with the host');
      await done;
      assert.equal(homeRequests, 1, 'one run for four missed slots');
      const ran = host.jobs.get(job.id).schedule!;
      assert.deepEqual([ran.lastRunAt, ran.nextRunAt, ran.due], [iso(clock.t), iso(local(2026, 5, 6, 3)), false]);

      // The next slot: a re-crawl, held running past the slot after it.
      const release = holdSlowPage();
      clock.t = local(2026, 5, 6, 3);
      host.scheduler.look();
      assert.equal(host.jobs.get(job.id).status, 'running');
      clock.t = local(2026, 5, 7, 3);
      host.scheduler.look();
      const waiting = host.jobs.get(job.id).schedule!;
      assert.deepEqual([waiting.due, waiting.nextRunAt, waiting.lastRunAt], [true, iso(local(2026, 5, 7, 3)), iso(local(2026, 5, 6, 3))]);
      const refused = await host.handle('jobs.recrawl', { id: job.id });
      assert.equal(refused.ok, false, 'never two runs of one archive at once');
      // The held capture ends; the due run starts on its own and finishes.
      done = log.next((e) => e.type === 'job' && e.job.id === job.id && e.job.status === 'finished' && e.job.schedule?.lastRunAt === iso(local(2026, 5, 7, 3)), 60_000);
      release();
      await done;
      const captures = value<CaptureSummary[]>(await host.handle('archives.captures', { id: job.id }));
      assert.deepEqual(captures.map((c) => [c.id, c.state]), [[1, 'finished'], [2, 'finished'], [3, 'finished']]);
      assert.equal(homeRequests, 3);
      const removed = value<JobSummary>(await host.handle('jobs.setSchedule', { id: job.id, schedule: null }));
      assert.equal(removed.schedule, null);
    } finally {
      await second.host.shutdown();
    }
  });
});
