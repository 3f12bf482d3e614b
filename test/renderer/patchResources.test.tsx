import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { PageAnalysis } from '../../renderer/features/PageAnalysis/index.js';
import type { QaPageResult, QaPatchReport, QaResultsPage, QaRunStatus } from '../../shared/qa.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { resetStores } from './helpers/fixtures.js';

const row = (url: string, missing: number): QaPageResult => ({
  url,
  capture: 1,
  analysedAt: '2026-01-03T00:00:00.000Z',
  reference: 'live',
  copies: {},
  textMatch: 0.5,
  screenshotMatch: 0.5,
  missing: Array.from({ length: missing }, (_, i) => ({ url: `${url}/m${i}.png`, type: 'image' })),
  deadLinks: [],
  error: null,
});

const results = (withMissing: number): QaResultsPage => ({
  capture: 1,
  captures: [1],
  total: 2,
  pages: 2,
  histogram: [0, 0, 0, 0, 0, 2, 0, 0, 0, 0],
  errors: 0,
  withMissing,
  rows: [row('http://a.test/x', withMissing > 0 ? 2 : 0), row('http://a.test/y', 0)],
});

const status = (over: Partial<QaRunStatus>): QaRunStatus => ({
  jobId: 'a',
  capture: 1,
  state: 'running',
  done: 0,
  total: 0,
  kept: 0,
  startedAt: '2026-01-03T00:00:00.000Z',
  etaMs: null,
  error: null,
  ...over,
});

const REPORT: QaPatchReport = {
  capture: 1,
  resources: [
    { url: 'http://a.test/x/m0.png', type: 'image', pages: 1, outcome: 'fetched', detail: null },
    { url: 'http://a.test/x/m1.png', type: 'image', pages: 1, outcome: 'skipped', detail: 'robots' },
  ],
  pages: [{ url: 'http://a.test/x', before: { textMatch: 0.5, screenshotMatch: 0.5, missing: 2 }, after: { textMatch: 1, screenshotMatch: 0.9, missing: 1 } }],
};

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('Patch missing resources (Report screen)', () => {
  let api: FakeApi;
  let missing: number;
  beforeEach(() => {
    resetStores();
    missing = 1;
    api = fakeApi({
      'qa.status': () => ok(null),
      'qa.results': () => ok(results(missing)),
      'qa.patch': () => ok(status({ patch: { phase: 'fetching', report: null } })),
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('is offered only when pages lack something', async () => {
    missing = 0;
    render(<PageAnalysis jobId="a" />);
    await settle();
    assert.equal(screen.queryByTestId('qa-patch'), null);
  });

  it('patches: says the job fetches, shows the analysis again, then what became of each resource and each page before and after', async () => {
    render(<PageAnalysis jobId="a" />);
    await settle();
    fireEvent.click(screen.getByTestId('qa-patch'));
    await settle();
    assert.deepEqual(api.callsTo('qa.patch'), [{ id: 'a' }]);
    assert.equal(screen.getByTestId('qa-run-state').dataset.state, 'fetching');
    assert.equal(screen.queryByTestId('qa-patch'), null, 'not offered twice while it runs');
    act(() => api.emit({ type: 'qa', qa: status({ done: 0, total: 1, patch: { phase: 'analysing', report: null } }) }));
    assert.match(screen.getByTestId('qa-progress-text').textContent ?? '', /0 of 1 page analysed again/);
    act(() => api.emit({ type: 'qa', qa: status({ state: 'done', done: 1, total: 1, patch: { phase: 'done', report: REPORT } }) }));
    await settle();
    assert.match(screen.getByTestId('qa-run-state').textContent ?? '', /Patched: 1 page analysed again/);
    assert.match(screen.getByTestId('qa-patch-summary').textContent ?? '', /1 of 2 missing resources fetched; 1 page analysed again/);
    assert.deepEqual(
      screen.getAllByTestId('qa-patch-resource').map((r) => [r.dataset.outcome, r.textContent]),
      [
        ['fetched', 'fetchedimagehttp://a.test/x/m0.png'],
        ['skipped', 'not fetchedimagehttp://a.test/x/m1.pngrobots'],
      ],
    );
    assert.equal(screen.getByTestId('qa-patch-page').textContent, 'http://a.test/x50.0% → 100.0%50.0% → 90.0%2 → 1');
  });
});
