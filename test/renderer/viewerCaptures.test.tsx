import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Viewer } from '../../renderer/features/Viewer/index.js';
import { sideBySide } from '../../renderer/features/Viewer/TextDiff.js';
import { useApp } from '../../renderer/stores/app.js';
import { useNav } from '../../renderer/stores/nav.js';
import type { UrlCaptureInfo } from '../../shared/captures.js';
import type { PageRow } from '../../shared/appViews.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const BASE = appInfo().viewerBase;
const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));
const URL_A = 'https://site.test/a.html';
const pageA: PageRow = { url: URL_A, title: 'Page A', localPath: 'site.test/a.html', capturedAt: '2026-03-01T00:00:00.000Z' };
const gone: PageRow = { url: 'https://site.test/gone.html', title: 'Gone', localPath: 'site.test/gone.html', removed: true };

const captures: UrlCaptureInfo[] = [
  { capture: 1, outcome: 'new', httpStatus: 200, contentType: 'text/html', fetchedAt: '2026-01-01T00:00:00.000Z', readable: true },
  { capture: 2, outcome: 'not-modified', httpStatus: 304, contentType: 'text/html', fetchedAt: '2026-02-01T00:00:00.000Z', readable: true },
  { capture: 3, outcome: 'changed', httpStatus: 200, contentType: 'text/html', fetchedAt: '2026-03-01T00:00:00.000Z', readable: true },
  { capture: 4, outcome: 'removed', httpStatus: 404, contentType: 'text/html', fetchedAt: '2026-04-01T00:00:00.000Z', readable: false },
];
const TEXTS: Record<number, string> = { 1: 'Opening hours\nMonday to Friday, nine to five.', 2: 'Opening hours\nMonday to Friday, nine to five.', 3: 'Opening hours\nMonday to Saturday, nine to five.' };

describe('the viewer and earlier captures', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    api = fakeApi({
      'archives.lookup': (a) => ok(a.localPath === pageA.localPath ? pageA : a.localPath === gone.localPath ? gone : null),
      'archives.pages': () => ok({ total: 2, rows: [pageA, gone] }),
      'archives.urlCaptures': (a) => ok(a.url === URL_A ? captures : []),
      'archives.captureContent': (a) => ok({ url: a.url, capture: a.capture, contentType: 'text/html', source: '<p>…</p>', text: TEXTS[a.capture] ?? null }),
    });
    setApi(api);
  });
  afterEach(cleanup);

  const frame = () => screen.getByTestId('viewer-frame') as HTMLIFrameElement;

  it('has a timeline of the page’s captures and shows the page as an earlier one had it', async () => {
    useNav.getState().openViewer('j1', pageA.localPath);
    render(<Viewer />);
    await settle();
    const items = screen.getAllByTestId('timeline-capture');
    assert.deepEqual(
      items.map((b) => b.querySelector('.mark')?.textContent),
      ['new', 'unchanged (304)', 'changed', 'removed'],
    );
    assert.equal((items[3] as HTMLButtonElement).disabled, true, 'a removed capture has no copy of its own');
    assert.equal(screen.getByTestId('timeline-latest').getAttribute('aria-pressed'), 'true');

    fireEvent.click(items[0]!);
    await settle();
    assert.equal(frame().src, `${BASE}j1/%40capture/1/site.test/a.html`);
    assert.match(screen.getByTestId('viewer-banner').textContent ?? '', /as capture 1 had it/);
    assert.equal((screen.getByTestId('viewer-url') as HTMLInputElement).value, URL_A);
    assert.equal(screen.getAllByTestId('timeline-capture')[0]!.getAttribute('aria-pressed'), 'true');

    fireEvent.click(screen.getByTestId('timeline-latest'));
    await settle();
    assert.equal(frame().src, `${BASE}j1/site.test/a.html`);
    fireEvent.click(screen.getByTestId('viewer-back'));
    await settle();
    assert.equal(frame().src, `${BASE}j1/%40capture/1/site.test/a.html`);
  });

  it('compares the visible text of two captures side by side', async () => {
    useNav.getState().openViewer('j1', pageA.localPath);
    render(<Viewer />);
    await settle();
    assert.equal((screen.getByTestId('compare-from') as HTMLSelectElement).value, '2');
    assert.equal((screen.getByTestId('compare-to') as HTMLSelectElement).value, '3');
    fireEvent.click(screen.getByTestId('compare-text'));
    await settle();
    assert.deepEqual(api.callsTo('archives.captureContent'), [
      { id: 'j1', url: URL_A, capture: 2 },
      { id: 'j1', url: URL_A, capture: 3 },
    ]);
    assert.equal(frame().hidden, true);
    assert.equal(screen.getByTestId('diff-summary').textContent, '1 word removed, 1 word added.');
    assert.deepEqual([...screen.getByTestId('diff-before').querySelectorAll('del')].map((e) => e.textContent), ['Friday']);
    assert.deepEqual([...screen.getByTestId('diff-after').querySelectorAll('ins')].map((e) => e.textContent), ['Saturday']);
    assert.match(screen.getByTestId('diff-after').textContent ?? '', /^Opening hours\nMonday to Saturday, nine to five\.$/);

    fireEvent.change(screen.getByTestId('compare-from'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('compare-to'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('compare-text'));
    await settle();
    assert.equal(screen.getByTestId('diff-summary').textContent, 'The visible text is the same in both captures.');
    fireEvent.click(screen.getByTestId('diff-close'));
    assert.equal(screen.queryByTestId('text-diff'), null);
    assert.equal(frame().hidden, false);
  });

  it('lists a page removed in the latest capture as removed, and it still opens', async () => {
    useNav.getState().openViewer('j1', pageA.localPath);
    render(<Viewer />);
    await settle();
    const rows = screen.getAllByTestId('page-item');
    assert.equal(rows[0]!.querySelector('[data-testid="page-removed"]'), null);
    assert.equal(rows[1]!.querySelector('[data-testid="page-removed"]')?.textContent, 'removed');
    fireEvent.click(rows[1]!);
    await settle();
    assert.equal(frame().src, `${BASE}j1/site.test/gone.html`);
    assert.equal(screen.queryByTestId('timeline'), null, 'one capture: no timeline');
  });

  it('marks words removed on the left and added on the right', () => {
    const d = sideBySide('a b c d', 'a c d e');
    assert.deepEqual(d.left.filter((p) => p.removed).map((p) => p.value.trim()), ['b']);
    assert.deepEqual(d.right.filter((p) => p.added).map((p) => p.value.trim()), ['e']);
    assert.equal(d.left.map((p) => p.value).join(''), 'a b c d');
    assert.equal(d.right.map((p) => p.value).join(''), 'a c d e');
  });
});
