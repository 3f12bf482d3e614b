import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { PageAnalysis } from '../../renderer/features/PageAnalysis/index.js';
import type { QaPageDetail, QaPageResult, QaResultsPage, QaRunStatus } from '../../shared/qa.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { resetStores } from './helpers/fixtures.js';

const page = (url: string, textMatch: number | null, screenshotMatch: number | null, extra: Partial<QaPageResult> = {}): QaPageResult => ({
  url,
  capture: 1,
  analysedAt: '2026-01-03T00:00:00.000Z',
  reference: 'live',
  copies: { mirror: { textMatch, screenshotMatch, missing: extra.missing ?? [], error: extra.error ?? null } },
  textMatch,
  screenshotMatch,
  missing: [],
  deadLinks: [],
  error: null,
  ...extra,
});

// Worst first, as the host answers: the page that could not be compared, then by the lower match.
const ROWS: QaPageResult[] = [
  page('http://a.test/gone', null, null, { error: 'the live page answered HTTP 404' }),
  page('http://a.test/listing', 0.35, 0.62, {
    missing: [
      { url: 'http://a.test/api/items.json', type: 'fetch' },
      { url: 'http://a.test/img/item-1.png', type: 'image' },
    ],
    deadLinks: ['a.test/items/1.html'],
  }),
  page('http://a.test/outside', 0.67, 0.97),
  page('http://a.test/', 1, 0.999),
];
const HISTOGRAM = [0, 0, 0, 1, 0, 0, 1, 0, 0, 1];

const results = (rows = ROWS): QaResultsPage => ({ capture: 1, captures: [1], total: rows.length, pages: 6, histogram: HISTOGRAM, errors: 1, withMissing: 1, rows });

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const detail = (r: QaPageResult): QaPageDetail => ({
  result: r,
  reference: { image: PNG, text: 'Items: apple banana cherry' },
  copy: { image: PNG, text: 'Items:' },
  replay: { image: null, text: null },
});

const status = (over: Partial<QaRunStatus> = {}): QaRunStatus => ({
  jobId: 'a',
  capture: 1,
  state: 'running',
  done: 3,
  total: 10,
  kept: 0,
  startedAt: '2026-01-03T00:00:00.000Z',
  etaMs: 120_000,
  error: null,
  ...over,
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('page analysis (Report screen)', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    api = fakeApi({
      'qa.status': () => ok(null),
      'qa.results': () => ok(results()),
      'qa.page': (a) => ok(detail(ROWS.find((r) => r.url === a.url)!)),
      'qa.start': () => ok(status({ done: 0 })),
      'qa.pause': () => ok(status()),
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('lists the pages worst first with their scores, and draws the histogram’s ten bins', async () => {
    render(<PageAnalysis jobId="a" />);
    await settle();
    const rows = screen.getAllByTestId('qa-row');
    assert.deepEqual(
      rows.map((r) => r.dataset.url),
      ROWS.map((r) => r.url),
    );
    assert.deepEqual(
      screen.getAllByTestId('qa-row-score').map((c) => c.textContent),
      ['–', '35.0%', '67.0%', '99.9%'],
    );
    assert.equal(within(rows[0]!).getByText('not compared').tagName, 'TD');
    const bins = screen.getAllByTestId('qa-bin');
    assert.equal(bins.length, 10);
    assert.deepEqual(
      bins.map((b) => Number(b.dataset.count)),
      HISTOGRAM,
    );
    // Each bin says its range and count in words; the tallest bar is full height, an empty one flat.
    assert.match(bins[3]!.textContent ?? '', /30–40%: 1 page/);
    assert.equal((bins[3]!.querySelector('.qa-bin-bar') as HTMLElement).style.height, '100%');
    assert.equal((bins[0]!.querySelector('.qa-bin-bar') as HTMLElement).style.height, '0%');
    assert.match(screen.getByTestId('qa-summary').textContent ?? '', /4 of 6 pages analysed in capture 1: 1 could not be compared, 1 with missing resources/);
    // Two pages are left to analyse (a start resumes); all of them can be analysed again.
    assert.equal(screen.getByTestId('qa-start').textContent, 'Analyse the 2 pages left');
    assert.equal(screen.getByTestId('qa-start-fresh').textContent, 'Analyse all again');
    assert.deepEqual(api.callsTo('qa.results'), [{ id: 'a', offset: 0, limit: 50 }]);
  });

  it('opens a page’s detail from the keyboard: both screenshots, the slider, the text diff, the missing resources and dead links', async () => {
    render(<PageAnalysis jobId="a" />);
    await settle();
    const open = within(screen.getAllByTestId('qa-row')[1]!).getByTestId('qa-row-open');
    assert.equal(open.tagName, 'BUTTON', 'a button: reachable with Tab, opened with Enter or Space');
    fireEvent.click(open);
    await settle();
    assert.deepEqual(api.callsTo('qa.page'), [{ id: 'a', url: 'http://a.test/listing' }]);
    const d = screen.getByTestId('qa-detail');
    assert.equal(open.getAttribute('aria-current'), 'true');
    const missing = within(d)
      .getAllByTestId('qa-missing-row')
      .map((r) => r.textContent);
    assert.deepEqual(missing, ['fetchhttp://a.test/api/items.json', 'imagehttp://a.test/img/item-1.png']);
    assert.deepEqual(
      within(within(d).getByTestId('qa-dead-links'))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
      ['a.test/items/1.html'],
    );
    assert.equal(within(d).getByTestId('qa-shot-reference').getAttribute('alt'), 'Live page: first screenful (reference)');
    assert.ok(within(d).getByTestId('qa-shot-copy'));
    const slider = within(d).getByLabelText(/Live page on the left, offline copy on the right/) as HTMLInputElement;
    fireEvent.change(slider, { target: { value: '30' } });
    assert.equal((within(d).getByTestId('qa-wipe-reference') as HTMLElement).style.clipPath, 'inset(0 70% 0 0)');
    assert.equal(within(d).getByTestId('qa-diff-reference').querySelector('del')?.textContent?.trim(), 'apple banana cherry');
    assert.match(within(d).getByTestId('qa-diff-summary').textContent ?? '', /3 words of the live page missing from the offline copy/);
    fireEvent.click(within(d).getByTestId('qa-detail-close'));
    assert.equal(screen.queryByTestId('qa-detail'), null);
  });

  it('switches between the copies compared: the replay’s figures, pictures, text and what it lacks', async () => {
    const REPLAY = 'data:image/png;base64,UkVQTEFZ';
    const both = page('http://a.test/both', 0.9, 0.4, {
      reference: 'crawl-render',
      copies: {
        mirror: { textMatch: 1, screenshotMatch: 1, missing: [], error: null },
        replay: { textMatch: 0.9, screenshotMatch: 0.4, missing: [{ url: 'http://a.test/main.css', type: 'stylesheet' }], error: null },
      },
      missing: [{ url: 'http://a.test/main.css', type: 'stylesheet' }],
    });
    api = fakeApi({
      'qa.status': () => ok(null),
      'qa.results': () => ok(results([both])),
      'qa.page': () => ok({ ...detail(both), copy: { image: PNG, text: 'Items: apple banana cherry' }, replay: { image: REPLAY, text: 'Items: apple' } }),
    });
    setApi(api);
    render(<PageAnalysis jobId="a" />);
    await settle();
    fireEvent.click(within(screen.getAllByTestId('qa-row')[0]!).getByTestId('qa-row-open'));
    await settle();
    const d = screen.getByTestId('qa-detail');
    assert.match(within(d).getByTestId('qa-detail-figures').textContent ?? '', /reference: crawl-time render/);
    assert.match(within(d).getByTestId('qa-copy-switch').textContent ?? '', /Offline copy: text 100.0%, screenshot 100.0%.*WACZ replay: text 90.0%, screenshot 40.0%/);
    // The offline copy first: it lacks nothing.
    assert.ok(within(d).getByTestId('qa-missing-none'));
    assert.equal(within(d).getByTestId('qa-shot-copy').getAttribute('src'), PNG);
    fireEvent.click(within(d).getByTestId('qa-copy-replay'));
    assert.equal(within(d).getByTestId('qa-shot-copy').getAttribute('src'), REPLAY);
    assert.equal(within(d).getByTestId('qa-shot-reference').getAttribute('alt'), 'Crawl-time render: first screenful (reference)');
    assert.deepEqual(within(d).getAllByTestId('qa-missing-row').map((r) => r.textContent), ['stylesheethttp://a.test/main.css']);
    assert.match(within(d).getByTestId('qa-diff-summary').textContent ?? '', /2 words of the crawl-time render missing from the wacz replay/);
  });

  it('shows an earlier capture’s analysis when picked: its rows and page detail, without the actions on the newest', async () => {
    const earlier = page('http://a.test/old', 0.5, 0.5);
    api = fakeApi({
      'qa.status': () => ok(null),
      'qa.results': (a) => ok((a as { capture?: number }).capture === 1 ? { ...results([earlier]), capture: 1, captures: [2, 1] } : { ...results(), capture: 2, captures: [2, 1] }),
      'qa.page': (a) => ok(detail(earlier)),
    });
    setApi(api);
    render(<PageAnalysis jobId="a" />);
    await settle();
    const picker = screen.getByTestId('qa-capture') as HTMLSelectElement;
    assert.deepEqual([...picker.options].map((o) => o.textContent), ['2 (newest analysed)', '1']);
    assert.ok(screen.getByTestId('qa-start-fresh'), 'the newest capture can be analysed again');
    fireEvent.change(picker, { target: { value: '1' } });
    await settle();
    assert.deepEqual(screen.getAllByTestId('qa-row').map((r) => r.dataset.url), ['http://a.test/old']);
    assert.ok((screen.getByTestId('qa-start-fresh').closest('.qa-actions') as HTMLElement).hidden, 'Analyse and Patch act on the newest: hidden for an earlier one');
    fireEvent.click(within(screen.getAllByTestId('qa-row')[0]!).getByTestId('qa-row-open'));
    await settle();
    assert.deepEqual(api.callsTo('qa.page'), [{ id: 'a', url: 'http://a.test/old', capture: 1 }]);
  });

  it('a page with nothing missing says so', async () => {
    render(<PageAnalysis jobId="a" />);
    await settle();
    fireEvent.click(within(screen.getAllByTestId('qa-row')[3]!).getByTestId('qa-row-open'));
    await settle();
    assert.ok(screen.getByTestId('qa-missing-none'));
    assert.equal(screen.queryByTestId('qa-missing'), null);
  });

  it('starts an analysis, shows its progress from events, pauses it and offers to resume', async () => {
    api = fakeApi({
      'qa.status': () => ok(null),
      'qa.results': () => ok({ capture: null, captures: [], total: 0, pages: 10, histogram: new Array(10).fill(0), errors: 0, withMissing: 0, rows: [] }),
      'qa.start': () => ok(status({ done: 0, etaMs: null })),
      'qa.pause': () => ok(status()),
    });
    setApi(api);
    render(<PageAnalysis jobId="a" />);
    await settle();
    assert.ok(screen.getByTestId('qa-none'));
    fireEvent.click(screen.getByTestId('qa-start'));
    await settle();
    assert.deepEqual(api.callsTo('qa.start'), [{ id: 'a', fresh: false }]);
    act(() => api.emit({ type: 'qa', qa: status() }));
    // Another archive's analysis changes nothing here.
    act(() => api.emit({ type: 'qa', qa: status({ jobId: 'b', done: 9 }) }));
    const bar = screen.getByRole('progressbar', { name: 'Pages analysed' });
    assert.equal(bar.getAttribute('aria-valuenow'), '30');
    assert.match(screen.getByTestId('qa-progress-text').textContent ?? '', /3 of 10 pages analysed, about 2 min left/);
    fireEvent.click(screen.getByTestId('qa-pause'));
    assert.deepEqual(api.callsTo('qa.pause'), [{ id: 'a' }]);
    act(() => api.emit({ type: 'qa', qa: status({ state: 'paused', etaMs: null }) }));
    assert.equal(screen.getByTestId('qa-start').textContent, 'Resume analysis');
    assert.match(screen.getByTestId('qa-run-state').textContent ?? '', /Paused after 3 pages/);
  });
});
