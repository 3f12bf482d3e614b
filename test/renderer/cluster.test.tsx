import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { dispatchHostEvent } from '../../renderer/bootstrap.js';
import { Jobs } from '../../renderer/features/Jobs/index.js';
import { parseJob } from '../../shared/job.js';
import type { ClusterStatus, ClusterView, WorkerStatus } from '../../shared/cluster.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { resetStores } from './helpers/fixtures.js';

const worker = (id: string, extra: Partial<WorkerStatus> = {}): WorkerStatus => ({
  id,
  host: 'node-1',
  state: 'live',
  standby: false,
  silentS: 0.2,
  rate: 4.5,
  batchSize: 12,
  meanFetchMs: 80,
  sites: ['http://127.0.0.1:8001'],
  fetched: 40,
  failures: 1,
  bytes: 2048,
  leases: 5,
  returned: 0,
  ...extra,
});

const status = (extra: Partial<ClusterStatus> = {}): ClusterStatus => ({
  name: 'university',
  counts: { archived: 30, queued: 50, leased: 12, failed: 2 },
  pending: 62,
  finished: false,
  activeWorkers: null,
  paused: false,
  limit: null,
  politeness: parseJob({ seeds: ['http://127.0.0.1:1/'] }).politeness,
  workers: [worker('w1'), worker('w2', { state: 'dead', silentS: 31, sites: [] })],
  ...extra,
});

const view = (extra: Partial<ClusterView> = {}): ClusterView => ({
  id: 'cluster-1',
  db: 'postgres://harvest@db.example:5432/crawl',
  status: status(),
  error: null,
  checkedAt: '2026-11-26T23:00:00.000Z',
  ...extra,
});

describe('attaching to a cluster harvest', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
  });
  afterEach(cleanup);

  it('shows the host’s reason beside the URL, and never the URL’s password', async () => {
    api = fakeApi({
      'clusters.attach': () => ({ ok: false, error: { code: 'unavailable', message: 'postgres://harvest@db.example:5432/crawl: cannot connect to the harvest database: connect ECONNREFUSED' } }),
    });
    setApi(api);
    render(<Jobs />);
    fireEvent.click(screen.getByTestId('cluster-attach-open'));
    fireEvent.change(screen.getByTestId('cluster-attach-url'), { target: { value: 'postgres://harvest:hunter2@db.example:5432/crawl' } });
    assert.equal(screen.getByTestId('cluster-attach-preview').textContent, 'postgres://harvest@db.example:5432/crawl');
    await act(async () => {
      fireEvent.click(screen.getByTestId('cluster-attach-submit'));
    });
    assert.match(screen.getByTestId('cluster-attach-error').textContent ?? '', /ECONNREFUSED/);
    assert.deepEqual(api.callsTo('clusters.attach'), [{ url: 'postgres://harvest:hunter2@db.example:5432/crawl' }]);
    assert.ok(!document.body.textContent?.includes('hunter2'));
  });

  it('shows progress and the worker table, pauses and resumes, and follows the host’s reads', async () => {
    api = fakeApi({
      'clusters.attach': () => ok(view()),
      'clusters.control': (a) => ok(view({ status: status({ paused: a.control.paused === true }) })),
    });
    setApi(api);
    render(<Jobs />);
    fireEvent.click(screen.getByTestId('cluster-attach-open'));
    fireEvent.change(screen.getByTestId('cluster-attach-url'), { target: { value: 'postgres://harvest:hunter2@db.example:5432/crawl' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('cluster-attach-submit'));
    });
    assert.equal(screen.getByTestId('cluster-name').textContent, 'university');
    assert.equal(screen.getByTestId('cluster-fetched').textContent, '32');
    assert.equal(screen.getByTestId('cluster-queued').textContent, '50');
    assert.equal(screen.getByTestId('cluster-rate').textContent, '4.5', 'the live workers’ rates summed');
    const rows = screen.getAllByTestId('cluster-worker');
    assert.deepEqual(
      rows.map((r) => within(r).getByTestId('cluster-worker-state').textContent),
      ['alive', 'dead (silent 31 s)'],
    );
    assert.equal(within(rows[0]!).getByTestId('cluster-worker-sites').textContent, '127.0.0.1:8001');

    await act(async () => {
      fireEvent.click(screen.getByTestId('cluster-pause'));
    });
    assert.deepEqual(api.callsTo('clusters.control'), [{ id: 'cluster-1', control: { paused: true } }]);
    assert.equal(screen.getByTestId('cluster-phase').textContent, 'pausing', 'batches still in flight');
    act(() => dispatchHostEvent({ type: 'cluster', cluster: view({ status: status({ paused: true, counts: { archived: 44, queued: 50 }, pending: 50 }) }) }));
    assert.equal(screen.getByTestId('cluster-phase').textContent, 'paused');
    await act(async () => {
      fireEvent.click(screen.getByTestId('cluster-resume'));
    });
    assert.deepEqual(api.callsTo('clusters.control')[1], { id: 'cluster-1', control: { paused: false } });

    act(() => dispatchHostEvent({ type: 'cluster', cluster: view({ error: 'postgres://harvest@db.example:5432/crawl: the database did not answer: Connection terminated' }) }));
    assert.match(screen.getByTestId('cluster-error').textContent ?? '', /Connection terminated/);
    assert.equal(screen.getByTestId('cluster-phase').textContent, 'unreachable');
    assert.ok(!document.body.textContent?.includes('hunter2'));

    // A harvest a job limit ended says which.
    act(() => dispatchHostEvent({ type: 'cluster', cluster: view({ status: status({ counts: { archived: 20, skipped: 40 }, pending: 0, limit: 'limit:pages' }) }) }));
    assert.equal(screen.getByTestId('cluster-phase').textContent, 'finished');
    assert.match(screen.getByTestId('cluster-progress').textContent ?? '', /Finished: 20 URLs fetched \(limit:pages reached\)/);
  });

  it('shows a focused harvest’s verdicts as a local job’s progress does, and nothing of the kind without a template', async () => {
    const focus = { relevantPages: 103, offTopicPages: 21, nearDuplicates: 13, harvestRate: 103 / 137 };
    api = fakeApi({ 'clusters.attach': () => ok(view({ status: status({ focus }) })) });
    setApi(api);
    render(<Jobs />);
    fireEvent.click(screen.getByTestId('cluster-attach-open'));
    fireEvent.change(screen.getByTestId('cluster-attach-url'), { target: { value: 'postgres://harvest@db.example:5432/crawl' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('cluster-attach-submit'));
    });
    assert.equal(
      screen.getByTestId('cluster-harvest-rate').textContent,
      'Focused harvest: harvest rate 75.2% (103 relevant, 21 off-topic, 13 near-duplicates)',
    );
    act(() => dispatchHostEvent({ type: 'cluster', cluster: view() }));
    assert.equal(screen.queryByTestId('cluster-harvest-rate'), null);
  });
});
