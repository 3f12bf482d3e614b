import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Library } from '../../renderer/features/Library/index.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import type { CaptureSummary, ChangeReport, OutcomeCounts } from '../../shared/captures.js';
import type { ArchiveSummary } from '../../shared/appViews.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, jobSummary, resetStores } from './helpers/fixtures.js';
import { useApp } from '../../renderer/stores/app.js';

const archive: ArchiveSummary = {
  jobId: 'a',
  name: 'Archive a',
  seeds: ['http://a.test/'],
  archiveDir: '/data/a',
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-02-01T00:00:00.000Z',
  status: 'finished',
  pages: 10,
  bytesOnDisk: 2048,
};

const counts = (over: Partial<OutcomeCounts>): OutcomeCounts => ({ new: 0, restored: 0, changed: 0, markupOnly: 0, unchanged: 0, notModified: 0, removed: 0, httpErrors: 0, failed: 0, ...over });
const captures: CaptureSummary[] = [
  { id: 1, startedAt: '2026-01-01T03:00:00.000Z', finishedAt: '2026-01-01T03:10:00.000Z', state: 'finished', durationMs: 600_000, counts: counts({ new: 1500 }), bytesAdded: 25_000_000 },
  { id: 2, startedAt: '2026-02-01T03:00:00.000Z', finishedAt: '2026-02-01T03:05:00.000Z', state: 'finished', durationMs: 300_000, counts: counts({ new: 3, restored: 2, changed: 120, markupOnly: 7, notModified: 1300, removed: 5 }), bytesAdded: 1_536_000 },
];
/** The host's lists: URL i of each outcome. */
const url = (list: string, i: number) => `http://a.test/${list}/${i}`;
const range = (list: string, total: number, offset: number, limit: number) => Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => url(list, offset + i));

describe('captures and change reports in the library', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    api = fakeApi({
      'archives.captures': () => ok(captures),
      'archives.changes': (a) => {
        const c = captures.find((k) => k.id === a.capture)!.counts;
        const offset = a.offset ?? 0;
        const limit = a.limit ?? 1000;
        const report: ChangeReport = {
          capture: a.capture!,
          previous: a.capture === 1 ? null : a.capture! - 1,
          counts: c,
          new: range('new', c.new, offset, limit),
          restored: range('restored', c.restored, offset, limit),
          changed: range('changed', c.changed, offset, limit),
          markupOnly: range('markup', c.markupOnly, offset, limit),
          removed: range('removed', c.removed, offset, limit),
        };
        return ok(report);
      },
      'jobs.recrawl': () => ok(jobSummary('a', 'running', null, 5)),
    });
    setApi(api);
    useArchives.setState({ list: [archive], loaded: true });
    useJobs.getState().upsert({ ...jobSummary('a', 'finished'), schedule: { schedule: { every: 1, unit: 'months', at: '03:00', from: '2026-01-01' }, nextRunAt: '2026-03-01T02:00:00.000Z', due: false, lastRunAt: null, lastError: null } });
  });
  afterEach(cleanup);

  const openCaptures = async () => {
    render(<Library />);
    await act(async () => fireEvent.click(screen.getByTestId('archive-captures')));
  };

  it('lists every capture, newest first, with its counts and the bytes it added, and the next scheduled run', async () => {
    await openCaptures();
    assert.deepEqual(api.callsTo('archives.captures'), [{ id: 'a' }]);
    const rows = screen.getAllByTestId('capture-row');
    assert.deepEqual(rows.map((r) => r.getAttribute('data-capture')), ['2', '1']);
    const cells = (r: HTMLElement) => ['capture-new', 'capture-changed', 'capture-markup-only', 'capture-removed', 'capture-bytes'].map((id) => within(r).getByTestId(id).textContent);
    assert.deepEqual(cells(rows[0]!), ['3', '120', '7', '5', '1.5 MB']);
    assert.deepEqual(cells(rows[1]!), ['1,500', '0', '0', '0', '25.0 MB']);
    assert.match(screen.getByTestId('captures').textContent ?? '', /2 captures · next run .*2026/);
  });

  it('opens a capture’s change report: every count in full, each list a page at a time', async () => {
    await openCaptures();
    await act(async () => fireEvent.click(within(screen.getAllByTestId('capture-row')[0]!).getByTestId('capture-changes')));
    const report = screen.getByTestId('change-report');
    assert.match(within(report).getByRole('heading').textContent ?? '', /Capture #2: what changed since #1/);
    assert.equal(screen.getByTestId('change-count-notModified').textContent, '1,300', 'counts are never capped');
    assert.equal(screen.getByTestId('change-count-restored').textContent, '2', 'pages back after removal are counted restored');
    assert.ok(screen.getByTestId('change-tab-restored'), 'and listed');
    assert.equal(screen.getByTestId('change-count-changed').textContent, '120');
    // The first list with something in it: the changed URLs, 50 of 120.
    assert.equal(screen.getByTestId('change-tab-changed').getAttribute('aria-selected'), 'true');
    let urls = screen.getAllByTestId('change-url').map((li) => li.textContent);
    assert.deepEqual([urls.length, urls[0], urls[49]], [50, url('changed', 0), url('changed', 49)]);
    assert.equal(screen.getByTestId('change-page').textContent, '1–50 of 120 · page 1 of 3');
    assert.equal((screen.getByTestId('change-prev') as HTMLButtonElement).disabled, true);

    await act(async () => fireEvent.click(screen.getByTestId('change-next')));
    await act(async () => fireEvent.click(screen.getByTestId('change-next')));
    urls = screen.getAllByTestId('change-url').map((li) => li.textContent);
    assert.deepEqual([urls.length, urls[0], urls[19]], [20, url('changed', 100), url('changed', 119)]);
    assert.equal(screen.getByTestId('change-page').textContent, '101–120 of 120 · page 3 of 3');
    assert.equal((screen.getByTestId('change-next') as HTMLButtonElement).disabled, true);
    assert.deepEqual(
      api.callsTo('archives.changes').map((a) => (a as { offset: number }).offset),
      [0, 50, 100],
    );

    await act(async () => fireEvent.click(screen.getByTestId('change-tab-removed')));
    assert.deepEqual(screen.getAllByTestId('change-url').map((li) => li.textContent), [0, 1, 2, 3, 4].map((i) => url('removed', i)));
    assert.equal(screen.getByTestId('change-page').textContent, '1–5 of 5 · page 1 of 1');
    fireEvent.click(screen.getByTestId('change-report-close'));
    assert.equal(screen.queryByTestId('change-report'), null);
  });

  it('Run again now from the captures starts the next capture', async () => {
    await openCaptures();
    await act(async () => fireEvent.click(screen.getByTestId('captures-run-again')));
    assert.deepEqual(api.callsTo('jobs.recrawl'), [{ id: 'a' }]);
    // The job now runs: no second run is offered, and the list is read again.
    assert.equal(screen.queryByTestId('captures-run-again'), null);
    assert.equal(api.callsTo('archives.captures').length, 2);
  });
});
