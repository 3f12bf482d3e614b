import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Jobs } from '../../renderer/features/Jobs/index.js';
import { Schedule } from '../../renderer/features/Schedule/index.js';
import { RunControls } from '../../renderer/features/RunControls/index.js';
import { describeSchedule } from '../../renderer/lib/scheduleText.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import type { JobStatus, JobSummary } from '../../shared/appViews.js';
import type { Schedule as ScheduleSettings } from '../../shared/schedule.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { jobSummary, resetStores } from './helpers/fixtures.js';

const daily: ScheduleSettings = { every: 1, unit: 'days', at: '03:00', from: '2026-05-01' };
const NEXT = '2026-05-06T01:00:00.000Z';

function scheduled(status: JobStatus, over: Partial<NonNullable<JobSummary['schedule']>> = {}, revision = 1): JobSummary {
  return { ...jobSummary('a', status, null, revision), schedule: { schedule: daily, nextRunAt: NEXT, due: false, lastRunAt: null, lastError: null, ...over } };
}

describe('schedule', () => {
  let api: FakeApi;
  let saved: ScheduleSettings | null = null;
  beforeEach(() => {
    resetStores();
    api = fakeApi({
      'jobs.setSchedule': (a) => {
        saved = a.schedule;
        return ok({ ...jobSummary('a', 'finished', null, 9), schedule: a.schedule && { schedule: a.schedule, nextRunAt: NEXT, due: false, lastRunAt: null, lastError: null } });
      },
      'jobs.recrawl': () => ok(jobSummary('a', 'running', null, 9)),
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('says how often the job runs and when next', () => {
    useJobs.getState().upsert(scheduled('finished'));
    render(<Schedule id="a" />);
    assert.equal(screen.getByTestId('schedule-summary').textContent, 'Every day at 03:00');
    assert.match(screen.getByTestId('schedule-next').textContent ?? '', /^Next run .*2026/);
    assert.equal(screen.getByTestId('schedule-edit').textContent, 'Change schedule…');
  });

  it('says why a due run waits: a capture in progress, or one to resume; a cancelled job does not run again', () => {
    useJobs.getState().upsert(scheduled('running', { due: true }));
    const { rerender } = render(<Schedule id="a" />);
    assert.match(screen.getByTestId('schedule-next').textContent ?? '', /^Run due since .*: it starts when the capture in progress finishes$/);
    act(() => useJobs.getState().upsert(scheduled('paused', { due: true }, 2)));
    rerender(<Schedule id="a" />);
    assert.match(screen.getByTestId('schedule-next').textContent ?? '', /resumed and finishes/);
    act(() => useJobs.getState().upsert(scheduled('cancelled', { lastError: 'the archive folder is gone' }, 3)));
    rerender(<Schedule id="a" />);
    assert.match(screen.getByTestId('schedule-next').textContent ?? '', /cancelled job does not run again/);
    assert.match(screen.getByTestId('schedule-error').textContent ?? '', /could not start: the archive folder is gone/);
  });

  it('checks the form before saving, saves a schedule and removes it', async () => {
    useJobs.getState().upsert(jobSummary('a', 'finished'));
    render(<Schedule id="a" />);
    fireEvent.click(screen.getByTestId('schedule-edit'));
    fireEvent.change(screen.getByTestId('schedule-every'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('schedule-from'), { target: { value: '2026-02-30' } });
    await act(async () => fireEvent.click(screen.getByTestId('schedule-save')));
    assert.match(screen.getByTestId('schedule-issues').textContent ?? '', /Every: must be at least 1.*First day: must be a day/);
    assert.deepEqual(api.callsTo('jobs.setSchedule'), [], 'nothing invalid is sent');

    fireEvent.change(screen.getByTestId('schedule-every'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('schedule-unit'), { target: { value: 'months' } });
    fireEvent.change(screen.getByTestId('schedule-at'), { target: { value: '04:30' } });
    fireEvent.change(screen.getByTestId('schedule-from'), { target: { value: '2026-01-31' } });
    await act(async () => fireEvent.click(screen.getByTestId('schedule-save')));
    assert.deepEqual(saved, { every: 2, unit: 'months', at: '04:30', from: '2026-01-31' });
    assert.equal(screen.queryByTestId('schedule-form'), null);
    assert.equal(screen.getByTestId('schedule-summary').textContent, "Every 2 months on the 31st (or the month's last day) at 04:30");

    fireEvent.click(screen.getByTestId('schedule-edit'));
    await act(async () => fireEvent.click(screen.getByTestId('schedule-remove')));
    assert.equal(saved, null);
    assert.equal(screen.queryByTestId('schedule-summary'), null);
  });

  it('the job list shows a scheduled job\'s schedule and next run', () => {
    setApi(fakeApi({ 'jobs.urls': () => ok({ total: 0, rows: [] }) }));
    useJobs.getState().setAll([scheduled('finished'), jobSummary('bb')]);
    render(<Jobs />);
    const rows = screen.getAllByTestId('job-row-schedule');
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.textContent ?? '', /^Every day at 03:00 · next /);
  });

  it('names weekly days and plain counts', () => {
    assert.equal(describeSchedule({ every: 2, unit: 'weeks', at: '22:15', from: '2026-03-16' }), 'Every 2 weeks on Monday at 22:15');
    assert.equal(describeSchedule({ every: 1, unit: 'months', at: '03:00', from: '2026-01-02' }), 'Every month on the 2nd at 03:00');
    assert.equal(describeSchedule({ every: 3, unit: 'days', at: '03:00', from: '2026-01-02' }), 'Every 3 days at 03:00');
  });

  it('Run again now asks the host for a new capture of a finished job', async () => {
    useJobs.getState().upsert(jobSummary('a', 'finished'));
    render(<RunControls id="a" status="finished" />);
    await act(async () => fireEvent.click(screen.getByTestId('job-run-again')));
    assert.deepEqual(api.callsTo('jobs.recrawl'), [{ id: 'a' }]);
    assert.equal(useJobs.getState().byId.a?.status, 'running');
  });
});
