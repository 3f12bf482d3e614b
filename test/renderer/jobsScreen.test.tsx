import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Jobs } from '../../renderer/features/Jobs/index.js';
import { Progress } from '../../renderer/features/Progress/index.js';
import { CancelRun, RunControls } from '../../renderer/features/RunControls/index.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import { useNav } from '../../renderer/stores/nav.js';
import { useProgress } from '../../renderer/stores/progress.js';
import type { JobStatus } from '../../shared/appViews.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, counts, jobSummary, progressEvent, resetStores } from './helpers/fixtures.js';

const buttons = () => ['job-start', 'job-pause', 'job-resume', 'job-run-again', 'job-cancel'].filter((id) => screen.queryByTestId(id) && !(screen.getByTestId(id) as HTMLButtonElement).disabled);

describe('run controls', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    api = fakeApi({ 'jobs.pause': () => ok(jobSummary('a', 'pausing')), 'jobs.resume': () => ok(jobSummary('a', 'running')) });
    setApi(api);
  });
  afterEach(cleanup);

  const cases: [JobStatus, string[]][] = [
    ['new', ['job-start']],
    ['running', ['job-pause', 'job-cancel']],
    ['pausing', ['job-cancel']],
    ['paused', ['job-resume', 'job-cancel']],
    ['interrupted', ['job-resume', 'job-cancel']],
    ['finished', ['job-run-again']],
    ['failed', ['job-resume']],
  ];
  for (const [status, enabled] of cases) {
    it(`offers ${enabled.join(', ') || 'nothing'} when ${status}`, () => {
      render(
        <>
          <RunControls id="a" status={status} />
          <CancelRun id="a" name="Job a" status={status} />
        </>,
      );
      assert.deepEqual(buttons(), enabled);
    });
  }

  it('cancels only after the archivist confirms, and keeping it sends nothing', async () => {
    api = fakeApi({ 'jobs.cancel': () => ok(jobSummary('a', 'pausing')) });
    setApi(api);
    render(<CancelRun id="a" name="Job a" status="running" />);
    fireEvent.click(screen.getByTestId('job-cancel'));
    assert.ok(screen.getByTestId('job-cancel-confirm'));
    fireEvent.click(screen.getByTestId('job-cancel-confirm-cancel'));
    assert.equal(screen.queryByTestId('job-cancel-confirm'), null);
    assert.deepEqual(api.callsTo('jobs.cancel'), []);
    fireEvent.click(screen.getByTestId('job-cancel'));
    await act(async () => fireEvent.click(screen.getByTestId('job-cancel-confirm-ok')));
    assert.deepEqual(api.callsTo('jobs.cancel'), [{ id: 'a' }]);
  });

  it('keeps Cancel apart from Pause in the job pane', () => {
    setApi(fakeApi({ 'jobs.urls': () => ok({ total: 0, rows: [] }) }));
    useJobs.getState().setAll([jobSummary('a', 'running')]);
    useJobs.getState().select('a');
    render(<Jobs />);
    const pause = screen.getByTestId('job-pause');
    const cancel = screen.getByTestId('job-cancel');
    // Not in the same button group, and not adjacent.
    assert.notEqual(pause.parentElement, cancel.parentElement);
    assert.notEqual(pause.nextElementSibling, cancel);
    assert.equal(pause.closest('[role="group"]')?.contains(cancel), false);
  });

  it('labels the resume of a crashed run and sends the commands', async () => {
    render(<RunControls id="a" status="interrupted" />);
    assert.equal(screen.getByTestId('job-resume').textContent, 'Resume (crashed run)');
    await act(async () => fireEvent.click(screen.getByTestId('job-resume')));
    assert.deepEqual(api.callsTo('jobs.resume'), [{ id: 'a' }]);
    assert.equal(useJobs.getState().byId.a?.status, 'running');
  });
});

describe('progress', () => {
  beforeEach(() => {
    resetStores();
    setApi(fakeApi({ 'jobs.urls': () => ok({ total: 0, rows: [] }) }));
  });
  afterEach(cleanup);

  it('renders the live numbers and drills into a skip reason', () => {
    useJobs.getState().upsert(jobSummary('a', 'running'));
    useProgress.getState().apply('a', progressEvent({ urlsPerSec: 2, kbPerSec: 50 }));
    useProgress.getState().apply(
      'a',
      progressEvent({
        counts: counts({ archived: 1200, redirects: 30, httpErrors: 5, failed: 2, queued: 300, inFlight: 4, skipped: 17, skippedByReason: { robots: 7, 'trap:query-variants': 10 }, bytes: 3 * 1024 * 1024 }),
        urlsPerSec: 42.4,
        kbPerSec: 512,
        elapsedMs: 125_000,
      }),
    );
    render(<Progress id="a" />);
    const text = (id: string) => screen.getByTestId(id).textContent;
    assert.equal(text('stat-fetched'), '1,237');
    assert.equal(text('stat-queued'), '304');
    assert.equal(text('stat-urls-per-sec'), '42');
    assert.equal(text('stat-kb-per-sec'), '524 kB/s');
    assert.equal(text('stat-bytes'), '3.1 MB');
    assert.equal(text('stat-elapsed'), '2:05');
    assert.equal(screen.getByTestId('progress-bar').getAttribute('aria-valuenow'), '80');
    assert.equal(screen.getByTestId('sparkline-urls').querySelectorAll('polyline').length, 1);
    fireEvent.click(screen.getByTestId('skip-trap:query-variants'));
    assert.deepEqual({ ...useNav.getState().drillDown, serial: 0 }, { jobId: 'a', state: 'skipped', skipReason: 'trap:query-variants', serial: 0 });
  });

  it('shows the finishing pass while it runs, and only then', () => {
    useJobs.getState().upsert(jobSummary('a', 'running'));
    useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 10 }) }));
    render(<Progress id="a" />);
    assert.equal(screen.queryByTestId('progress-finishing'), null);
    act(() => useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 10 }), finishing: { done: 1500, total: 6000 } })));
    assert.match(screen.getByTestId('progress-finishing').textContent ?? '', /1,500 of 6,000 URLs \(25%\)/);
    act(() => useJobs.getState().upsert(jobSummary('a', 'finished', counts({ archived: 10 }))));
    assert.equal(screen.queryByTestId('progress-finishing'), null);
  });

  it('shows a focused harvest\'s harvest rate, and nothing of it for other crawls', () => {
    useJobs.getState().upsert(jobSummary('a', 'running'));
    useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 10 }) }));
    const { unmount } = render(<Progress id="a" />);
    assert.equal(screen.queryByTestId('progress-harvest-rate'), null);
    unmount();
    useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 10 }), focus: { relevantPages: 7, offTopicPages: 2, nearDuplicates: 1, harvestRate: 0.7 } }));
    render(<Progress id="a" />);
    assert.equal(screen.getByTestId('progress-harvest-rate').textContent, 'Focused harvest: harvest rate 70.0% (7 relevant, 2 off-topic, 1 near-duplicates)');
  });

  it('falls back to stored counts when the job is not running', () => {
    useJobs.getState().upsert({ ...jobSummary('a', 'finished', counts({ archived: 9 })), durationMs: 61_000 });
    render(<Progress id="a" />);
    assert.equal(screen.getByTestId('stat-fetched').textContent, '9');
    assert.equal(screen.getByTestId('stat-elapsed').textContent, '1:01');
    // Rates mean nothing once a run is over: they are not shown, and no ETA either.
    assert.equal(screen.queryByTestId('stat-urls-per-sec'), null);
    assert.equal(screen.queryByTestId('progress-eta'), null);
    assert.equal(screen.getByTestId('progress-percent').textContent, 'Finished: each of the 9 URLs fetched has its outcome');
  });

  it('says which capture the job page and its row show', () => {
    setApi(fakeApi({ 'jobs.urls': () => ok({ total: 0, rows: [] }) }));
    useJobs.getState().setAll([{ ...jobSummary('a', 'finished', counts({ archived: 4 })), capture: 3, pages: 4 }]);
    useJobs.getState().select('a');
    render(<Jobs />);
    assert.equal(screen.getByTestId('job-capture').textContent, 'Showing capture 3');
    assert.equal(screen.getByTestId('job-row-archived').textContent, '4 pages · 4 archived · capture 3');
  });

  it('a run whose seeds all failed says it failed, not a full green bar of 0 URLs', () => {
    useJobs.getState().upsert(jobSummary('a', 'failed', counts({ httpErrors: 1 })));
    render(<Progress id="a" />);
    assert.equal(screen.getByTestId('progress-percent').textContent, 'Failed: nothing was harvested. The message above says why');
    assert.match(screen.getByTestId('progress-bar').className, /\bfailed\b/);
  });

  it('says the percentage is of the URLs known so far, with the time left', () => {
    useJobs.getState().upsert(jobSummary('a', 'running'));
    useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 30, queued: 60, inFlight: 10 }), urlsPerSec: 2, elapsedMs: 10_000 }));
    render(<Progress id="a" />);
    assert.equal(screen.getByTestId('progress-bar').getAttribute('aria-valuenow'), '30');
    assert.match(screen.getByTestId('progress-percent').textContent ?? '', /^30% of the 100 URLs found so far · about 35 s left at the current rate/);
  });
});

describe('jobs screen', () => {
  beforeEach(() => {
    resetStores();
    setApi(fakeApi({ 'jobs.urls': () => ok({ total: 0, rows: [] }), 'jobs.delete': (a) => ok({ archiveDir: '/data/x', kept: !a.deleteArchive, removed: [], leftBehind: [], folderRemoved: a.deleteArchive, refused: null }), 'app.info': () => ok(appInfo()) }));
  });
  afterEach(cleanup);

  it('explains what to do when there are no jobs', () => {
    useJobs.getState().setAll([]);
    render(<Jobs />);
    assert.match(screen.getByTestId('jobs-empty').textContent ?? '', /Create one with New job/);
  });

  it('lists several jobs with their status and deletes one after confirmation', async () => {
    useJobs.getState().setAll([jobSummary('a', 'running'), jobSummary('bb', 'paused')]);
    render(<Jobs />);
    act(() => useProgress.getState().apply('a', progressEvent({ counts: counts({ archived: 77 }) })));
    const rows = screen.getAllByTestId('job-row');
    assert.deepEqual(rows.map((r) => within(r).getByTestId('job-status').textContent), ['paused', 'running']);
    assert.equal(within(rows[1]!).getByTestId('job-row-archived').textContent, '77 archived so far');
    fireEvent.click(rows[0]!);
    assert.equal(screen.getByTestId('job-name').textContent, 'Job bb');
    fireEvent.click(screen.getByTestId('job-delete'));
    fireEvent.click(screen.getByTestId('job-delete-confirm-cancel'));
    assert.equal(screen.getAllByTestId('job-row').length, 2);
    fireEvent.click(screen.getByTestId('job-delete'));
    await act(async () => fireEvent.click(screen.getByTestId('job-delete-confirm-ok')));
    assert.deepEqual(screen.getAllByTestId('job-row').map((r) => r.getAttribute('data-job-id')), ['a']);
  });
});
