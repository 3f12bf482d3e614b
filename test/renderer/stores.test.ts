import './helpers/dom.js';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { setApi } from '../../renderer/api/index.js';
import { connectStores, dispatchHostEvent } from '../../renderer/bootstrap.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useExports } from '../../renderer/stores/exports.js';
import { runActionsFor, selectJobIds, useJobs } from '../../renderer/stores/jobs.js';
import { HISTORY_POINTS, useProgress } from '../../renderer/stores/progress.js';
import { useToasts } from '../../renderer/stores/toasts.js';
import { MAX_CACHED_PAGES, PAGE_SIZE, RECENT_EVENTS, rowAt, useUrls } from '../../renderer/stores/urls.js';
import type { UrlRecord } from '../../shared/crawl.js';
import { fakeApi, ok } from './helpers/fakeApi.js';
import { appInfo, counts, jobSummary, progressEvent, resetStores } from './helpers/fixtures.js';

const record = (i: number): UrlRecord => ({
  url: `http://a.test/${i}`,
  state: 'archived',
  depth: 1,
  httpStatus: 200,
  contentType: 'text/html',
  bytes: 10,
  localPath: `${i}.html`,
  redirectTo: null,
  skipReason: null,
  error: null,
  reason: null,
});

describe('stores fed by host events', () => {
  beforeEach(() => {
    resetStores();
    setApi(fakeApi({ 'archives.list': () => ok([]) }));
  });

  it('upserts jobs, lists them newest first and removes deleted ones', () => {
    dispatchHostEvent({ type: 'job', job: jobSummary('a') });
    dispatchHostEvent({ type: 'job', job: jobSummary('bb') });
    assert.deepEqual(selectJobIds(useJobs.getState()), ['bb', 'a']);
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'running') });
    assert.equal(useJobs.getState().byId.a?.status, 'running');
    useJobs.getState().select('a');
    dispatchHostEvent({ type: 'job-deleted', id: 'a' });
    assert.deepEqual(selectJobIds(useJobs.getState()), ['bb']);
    assert.equal(useJobs.getState().selectedId, null);
  });

  it("keeps a job's newer state when a command's reply arrives after the event of a later change", async () => {
    setApi(fakeApi({ 'archives.list': () => ok([]), 'jobs.pause': () => ok(jobSummary('a', 'pausing', null, 2)) }));
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'running', null, 1) });
    const reply = useJobs.getState().pause('a');
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'paused', null, 3) });
    await reply;
    assert.equal(useJobs.getState().byId.a?.status, 'paused');
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'running', null, 4) });
    assert.equal(useJobs.getState().byId.a?.status, 'running');
  });

  it('reloads the archive list when a job changes status, not on every update', async () => {
    const api = fakeApi({ 'archives.list': () => ok([]) });
    setApi(api);
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'running') });
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'running') });
    dispatchHostEvent({ type: 'job', job: jobSummary('a', 'finished') });
    assert.equal(api.callsTo('archives.list').length, 2);
  });

  it('reloads the archive list when another process made a capture (same status, new capture)', () => {
    const api = fakeApi({ 'archives.list': () => ok([]) });
    setApi(api);
    dispatchHostEvent({ type: 'job', job: { ...jobSummary('a', 'finished', null, 1), capture: 2, pages: 5 } });
    dispatchHostEvent({ type: 'job', job: { ...jobSummary('a', 'finished', null, 2), capture: 3, pages: 5 } });
    assert.equal(api.callsTo('archives.list').length, 2);
  });

  it('keeps the latest progress and a bounded rate history per job', () => {
    for (let i = 0; i < HISTORY_POINTS + 5; i++) {
      dispatchHostEvent({ type: 'progress', id: 'a', progress: progressEvent({ urlsPerSec: i, counts: counts({ archived: i }) }) });
    }
    const p = useProgress.getState().byJob.a;
    assert.equal(p?.latest.counts.archived, HISTORY_POINTS + 4);
    assert.equal(p?.history.length, HISTORY_POINTS);
    assert.equal(p?.history[0]?.urlsPerSec, 5);
    assert.equal(useProgress.getState().byJob.b, undefined);
  });

  it('keeps recent URL events and marks an open log stale', () => {
    useUrls.getState().setFilter('a', { search: '' });
    const gen = useUrls.getState().logs.a?.gen;
    const events = Array.from({ length: RECENT_EVENTS + 10 }, (_, i) => ({ type: 'url' as const, url: `http://a.test/${i}`, state: 'queued' as const }));
    dispatchHostEvent({ type: 'urls', id: 'a', events });
    assert.equal(useUrls.getState().recent.a?.length, RECENT_EVENTS);
    assert.equal(useUrls.getState().recent.a?.at(-1)?.url, `http://a.test/${RECENT_EVENTS + 9}`);
    assert.equal(useUrls.getState().logs.a?.gen, (gen ?? 0) + 1);
  });

  it('tracks exports by id', () => {
    const status = { exportId: 'x1', jobId: 'a', format: 'wacz' as const, outPath: '/o.wacz', state: 'running' as const, progress: { phase: 'writing', doneBytes: 5, totalBytes: 10 }, result: null, error: null };
    dispatchHostEvent({ type: 'export', export: status });
    dispatchHostEvent({ type: 'export', export: { ...status, state: 'done', result: { bytes: 10, files: 1 } } });
    assert.equal(useExports.getState().byId.x1?.state, 'done');
  });

  it('connectStores loads app info, jobs and archives and follows events', async () => {
    const api = fakeApi({
      'app.info': () => ok(appInfo()),
      'jobs.list': () => ok([jobSummary('a')]),
      'archives.list': () => ok([]),
    });
    setApi(api);
    const disconnect = connectStores(api);
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(Object.keys(useJobs.getState().byId), ['a']);
    assert.equal(useArchives.getState().loaded, true);
    api.emit({ type: 'job', job: jobSummary('c', 'running') });
    assert.equal(useJobs.getState().byId.c?.status, 'running');
    disconnect();
    api.emit({ type: 'job', job: jobSummary('d') });
    assert.equal(useJobs.getState().byId.d, undefined);
  });
});

describe('command failures', () => {
  beforeEach(resetStores);

  it('show a toast, except invalid-job which the form shows', async () => {
    setApi(fakeApi({ 'jobs.create': () => ({ ok: false, error: { code: 'invalid-job', message: 'bad', issues: [] } }) }));
    await useJobs.getState().start('a');
    assert.match(useToasts.getState().toasts[0]?.message ?? '', /jobs.start not faked/);
    await useJobs.getState().create({ seeds: [] });
    assert.equal(useToasts.getState().toasts.length, 1);
  });
});

describe('run actions per status', () => {
  it('enables the right controls', () => {
    assert.deepEqual(runActionsFor('new'), { start: true, pause: false, resume: false, cancel: false, again: false, crashed: false });
    assert.deepEqual(runActionsFor('running'), { start: false, pause: true, resume: false, cancel: true, again: false, crashed: false });
    assert.deepEqual(runActionsFor('paused'), { start: false, pause: false, resume: true, cancel: true, again: false, crashed: false });
    assert.deepEqual(runActionsFor('interrupted'), { start: false, pause: false, resume: true, cancel: true, again: false, crashed: true });
    assert.deepEqual(runActionsFor('finished'), { start: false, pause: false, resume: false, cancel: false, again: true, crashed: false });
  });
});

describe('URL log paging', () => {
  beforeEach(resetStores);

  it('fetches only missing or stale pages, with the filter, and bounds the cache', async () => {
    const api = fakeApi({
      'jobs.urls': (a) => ok({ total: 1_000_000, rows: Array.from({ length: a.limit ?? 0 }, (_, i) => record((a.offset ?? 0) + i)) }),
    });
    setApi(api);
    useUrls.getState().setFilter('a', { state: 'archived', search: 'x' });
    await useUrls.getState().ensurePages('a', [0, 1]);
    assert.deepEqual(api.callsTo('jobs.urls'), [
      { id: 'a', offset: 0, limit: PAGE_SIZE, state: 'archived', search: 'x' },
      { id: 'a', offset: PAGE_SIZE, limit: PAGE_SIZE, state: 'archived', search: 'x' },
    ]);
    const log = useUrls.getState().logs.a;
    assert.equal(log?.total, 1_000_000);
    assert.equal(rowAt(log, PAGE_SIZE + 3)?.url, `http://a.test/${PAGE_SIZE + 3}`);
    await useUrls.getState().ensurePages('a', [0, 1]);
    assert.equal(api.callsTo('jobs.urls').length, 2, 'fresh pages are not refetched');
    useUrls.getState().applyEvents('a', [{ type: 'url', url: 'http://a.test/new', state: 'queued' }]);
    await useUrls.getState().ensurePages('a', [1]);
    assert.equal(api.callsTo('jobs.urls').length, 3, 'a stale page on screen is refetched');
    for (let p = 2; p < MAX_CACHED_PAGES + 10; p++) await useUrls.getState().ensurePages('a', [p]);
    assert.equal(Object.keys(useUrls.getState().logs.a?.pages ?? {}).length, MAX_CACHED_PAGES);
  });

  it('drops answers to a filter that has since changed', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    setApi(fakeApi({ 'jobs.urls': async () => (await gate, ok({ total: 5, rows: [record(1)] })) }));
    useUrls.getState().setFilter('a', { search: 'old' });
    const pending = useUrls.getState().ensurePages('a', [0]);
    useUrls.getState().setFilter('a', { search: 'new' });
    release();
    await pending;
    assert.equal(useUrls.getState().logs.a?.total, null);
    assert.deepEqual(useUrls.getState().logs.a?.pages, {});
  });
});
