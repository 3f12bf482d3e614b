import './helpers/dom.js';
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { ROW_HEIGHT, UrlLog } from '../../renderer/features/UrlLog/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useNav } from '../../renderer/stores/nav.js';
import { PAGE_SIZE, useUrls } from '../../renderer/stores/urls.js';
import type { UrlRecord } from '../../shared/crawl.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const TOTAL = 1_000_000;
const VIEWPORT = 420;
const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

const record = (i: number): UrlRecord => ({
  url: `http://a.test/page/${i}`,
  state: 'archived',
  depth: 2,
  httpStatus: 200,
  contentType: 'text/html',
  bytes: 2048,
  localPath: `page/${i}.html`,
  redirectTo: null,
  skipReason: null,
  error: null,
  reason: null,
});

describe('URL log', () => {
  let api: FakeApi;
  // happy-dom does no layout: give elements the viewport height the virtualiser measures.
  const sizes = { clientHeight: VIEWPORT, clientWidth: 800 };
  const originals = Object.keys(sizes).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)] as const);
  before(() => {
    for (const [k, v] of Object.entries(sizes)) Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  });
  after(() => {
    for (const [k, d] of originals) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  });

  beforeEach(() => {
    resetStores();
    api = fakeApi({
      'jobs.urls': (a) => {
        const offset = a.offset ?? 0;
        const total = a.search ? 3 : TOTAL;
        const n = Math.max(0, Math.min(a.limit ?? 0, total - offset));
        return ok({ total, rows: Array.from({ length: n }, (_, i) => record(offset + i)) });
      },
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('offers the log as a download on the web host, and not in the desktop app', async () => {
    useApp.setState({ info: appInfo('web') });
    const { unmount } = render(<UrlLog id="job 1" height={VIEWPORT} />);
    await settle();
    const link = screen.getByTestId('url-log-download');
    assert.equal(link.getAttribute('href'), 'log/job%201');
    assert.equal(link.hasAttribute('download'), true);
    unmount();
    useApp.setState({ info: appInfo('electron') });
    render(<UrlLog id="job 1" height={VIEWPORT} />);
    await settle();
    assert.equal(screen.queryByTestId('url-log-download'), null);
  });

  it('renders only a window of a million rows and fetches only their page', async () => {
    render(<UrlLog id="a" height={VIEWPORT} />);
    await settle();
    assert.equal(screen.getByTestId('url-log-total').textContent, '1,000,000 URLs');
    const rows = screen.getAllByTestId('url-row');
    assert.ok(rows.length > 5 && rows.length < 60, `rendered ${rows.length} rows`);
    assert.equal(rows[0]?.textContent?.includes('http://a.test/page/0'), true);
    assert.deepEqual(api.callsTo('jobs.urls'), [{ id: 'a', offset: 0, limit: PAGE_SIZE }]);
    const held = Object.values(useUrls.getState().logs.a?.pages ?? {}).reduce((n, p) => n + p.rows.length, 0);
    assert.equal(held, PAGE_SIZE);
  });

  it('fetches the page scrolled to', async () => {
    render(<UrlLog id="a" height={VIEWPORT} />);
    await settle();
    const scroller = screen.getByTestId('url-log-scroll');
    const target = 654_321;
    await act(async () => {
      scroller.scrollTop = target * ROW_HEIGHT;
      fireEvent.scroll(scroller);
    });
    await settle();
    const offsets = api.callsTo('jobs.urls').map((a) => (a as { offset: number }).offset);
    assert.ok(offsets.includes(Math.floor(target / PAGE_SIZE) * PAGE_SIZE), `fetched ${offsets.join(',')}`);
    const indexes = screen.getAllByTestId('url-row').map((r) => Number(r.getAttribute('data-index')));
    assert.ok(indexes.includes(target), 'the row scrolled to is rendered');
    assert.ok(screen.getAllByTestId('url-row').length < 60);
    assert.match(screen.getAllByTestId('url-row').find((r) => r.getAttribute('data-index') === String(target))?.textContent ?? '', /page\/654321/);
  });

  it('filters by state and search, and applies a drill-down', async () => {
    render(<UrlLog id="a" height={VIEWPORT} />);
    await settle();
    fireEvent.change(screen.getByTestId('url-log-state'), { target: { value: 'http-error' } });
    await settle();
    assert.deepEqual(api.callsTo('jobs.urls').at(-1), { id: 'a', offset: 0, limit: PAGE_SIZE, state: 'http-error' });
    fireEvent.change(screen.getByTestId('url-log-search'), { target: { value: 'page/1' } });
    await act(async () => new Promise((r) => setTimeout(r, 300)));
    await settle();
    assert.deepEqual(api.callsTo('jobs.urls').at(-1), { id: 'a', offset: 0, limit: PAGE_SIZE, state: 'http-error', search: 'page/1' });
    assert.equal(screen.getAllByTestId('url-row').length, 3);
    await act(async () => useNav.getState().drill('a', { state: 'skipped', skipReason: 'robots' }));
    await settle();
    assert.deepEqual(api.callsTo('jobs.urls').at(-1), { id: 'a', offset: 0, limit: PAGE_SIZE, state: 'skipped', skipReason: 'robots' });
    assert.equal((screen.getByTestId('url-log-reason') as HTMLSelectElement).value, 'robots');
  });
});
