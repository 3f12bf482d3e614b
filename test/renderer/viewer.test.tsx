import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Viewer } from '../../renderer/features/Viewer/index.js';
import { LOCATION_MESSAGE } from '../../shared/frameLocation.js';
import { FORM_MESSAGE, MISSING_MESSAGE } from '../../shared/frameLinks.js';
import { viewerUrl } from '../../renderer/features/Viewer/frameLocation.js';
import { back, canGoBack, canGoForward, currentPath, emptyHistory, forward, replace, visit } from '../../renderer/lib/viewerHistory.js';
import { useApp } from '../../renderer/stores/app.js';
import { useNav } from '../../renderer/stores/nav.js';
import type { PageRow, ScriptsSetting } from '../../shared/appViews.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const BASE = appInfo().viewerBase;
/** Where the archive's pages report from (the fixture's viewerBase names no job host). */
const ORIGIN = new URL(BASE).origin;
const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));
const page = (localPath: string): PageRow => ({ url: `https://site.test/${localPath.replace(/index\.html$/, '')}`, title: `Title ${localPath}`, localPath });

describe('viewer history', () => {
  it('goes back and forward and drops the forward entries on a new visit', () => {
    let h = visit(visit(visit(emptyHistory, 'a'), 'b'), 'c');
    assert.equal(currentPath(h), 'c');
    h = back(back(h));
    assert.equal(currentPath(h), 'a');
    assert.equal(canGoBack(h), false);
    assert.equal(back(h), h);
    h = forward(h);
    assert.equal(currentPath(h), 'b');
    h = visit(h, 'd');
    assert.deepEqual(h.entries, ['a', 'b', 'd']);
    assert.equal(canGoForward(h), false);
    assert.equal(visit(h, 'd'), h, 'revisiting the current page adds nothing');
  });

  it('a redirect takes the place of the page it left, and Back gets past a page that refreshes to its target', () => {
    // The entry page refreshes to the start page: it is replaced, not stacked.
    let h = replace(visit(emptyHistory, 'index.html'), 'start.html');
    assert.deepEqual(h, { entries: ['start.html'], index: 0 });
    h = visit(visit(emptyHistory, 'a'), 'entry');
    h = replace(h, 'target');
    assert.deepEqual(h.entries, ['a', 'target']);
    // Back onto a page that refreshes to the one after it: the two become one, and Back goes on to 'a'.
    h = visit(visit(emptyHistory, 'a'), 'entry');
    h = visit(h, 'target');
    h = replace(back(h), 'target');
    assert.deepEqual(h, { entries: ['a', 'target'], index: 1 });
    assert.equal(currentPath(back(h)), 'a');
    assert.equal(replace(h, 'target'), h, 'the current page replaced by itself changes nothing');
  });
});

describe('frame location', () => {
  it('builds encoded viewer URLs, one origin per job', () => {
    assert.equal(viewerUrl(BASE, 'j1', 'a b/c#.html'), `${BASE}j1/a%20b/c%23.html`);
    assert.equal(viewerUrl('http://{job}.localhost:9/t/', 'j1', 'a b/c.html'), 'http://j1.localhost:9/t/a%20b/c.html');
  });
});

describe('viewer screen', () => {
  let api: FakeApi;
  let scripts: ScriptsSetting;
  beforeEach(() => {
    scripts = { allowed: false, switchable: true };
    resetStores();
    useApp.setState({ info: appInfo('web') });
    api = fakeApi({
      'archives.lookup': (a) => ok(a.localPath.endsWith('.html') ? page(a.localPath) : null),
      'archives.pages': (a) => ok({ total: a.search ? 1 : 2, rows: a.search ? [page('about.html')] : [page('index.html'), page('about.html')] }),
      'archives.openInBrowser': () => ok({ path: '/data/a/mirror/index.html' }),
      // The host knows where the frame went from the token its document reported.
      'archives.frameLocation': (a) => ok({ localPath: a.token === 'tok-item' ? 'news/item.html' : null }),
      'archives.scripts': () => ok(scripts),
      'archives.setScripts': (a) => ok((scripts = { allowed: a.allowed, switchable: true })),
    });
    setApi(api);
  });
  afterEach(cleanup);

  const frame = () => screen.getByTestId('viewer-frame') as HTMLIFrameElement;
  const urlBar = () => (screen.getByTestId('viewer-url') as HTMLInputElement).value;

  it('explains itself when no archive is open', () => {
    render(<Viewer />);
    assert.match(screen.getByTestId('viewer-empty').textContent ?? '', /Library/);
  });

  it('shows the original URL, follows the page list and goes back and forward', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    assert.equal(frame().getAttribute('sandbox'), 'allow-scripts allow-forms allow-same-origin');
    assert.equal(frame().src, `${BASE}j1/index.html`);
    assert.equal(urlBar(), 'https://site.test/');
    assert.equal(screen.getAllByTestId('page-item').length, 2);
    assert.equal(screen.getByTestId('page-total').textContent, '2 pages');
    assert.equal((screen.getByTestId('viewer-back') as HTMLButtonElement).disabled, true);

    fireEvent.click(screen.getAllByTestId('page-item')[1]!);
    await settle();
    assert.equal(frame().src, `${BASE}j1/about.html`);
    assert.equal(urlBar(), 'https://site.test/about.html');

    fireEvent.click(screen.getByTestId('viewer-back'));
    await settle();
    assert.equal(frame().src, `${BASE}j1/index.html`);
    assert.equal(urlBar(), 'https://site.test/');
    fireEvent.click(screen.getByTestId('viewer-forward'));
    await settle();
    assert.equal(urlBar(), 'https://site.test/about.html');
  });

  it('a location answer that comes after Forward was pressed does not push the page left behind', async () => {
    let answer: (() => void) | null = null;
    setApi(
      fakeApi({
        'archives.lookup': (a) => ok(a.localPath.endsWith('.html') ? page(a.localPath) : null),
        'archives.pages': () => ok({ total: 2, rows: [page('index.html'), page('about.html')] }),
        'archives.scripts': () => ok(scripts),
        // The host answers where the back-loaded page is only after Forward was pressed.
        'archives.frameLocation': () => new Promise((resolve) => (answer = () => resolve(ok({ localPath: 'index.html' })))),
      }),
    );
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.click(screen.getAllByTestId('page-item')[1]!);
    await settle();
    fireEvent.click(screen.getByTestId('viewer-back'));
    await settle();
    assert.equal(urlBar(), 'https://site.test/');
    fireEvent.load(frame());
    await act(async () => window.dispatchEvent(new MessageEvent('message', { data: { type: LOCATION_MESSAGE, token: 'tok-index' }, source: frame().contentWindow, origin: ORIGIN })));
    fireEvent.click(screen.getByTestId('viewer-forward'));
    await settle();
    assert.equal(urlBar(), 'https://site.test/about.html');
    assert.ok(answer, 'the frame\'s location was asked');
    await act(async () => answer!());
    await settle();
    assert.equal(urlBar(), 'https://site.test/about.html', 'the late answer left the page shown');
    fireEvent.click(screen.getByTestId('viewer-back'));
    await settle();
    assert.equal(urlBar(), 'https://site.test/');
    assert.equal((screen.getByTestId('viewer-forward') as HTMLButtonElement).disabled, false, 'Forward still leads to about.html');
  });

  it('follows navigation inside the frame from where the host saw it go, not from what the page says', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, source: frame().contentWindow, origin: ORIGIN }));
    await act(async () => post({ type: LOCATION_MESSAGE, token: 'tok-item' }));
    fireEvent.load(frame());
    await settle();
    assert.equal(urlBar(), 'https://site.test/news/item.html');
    assert.deepEqual(api.callsTo('archives.frameLocation'), [{ id: 'j1', token: 'tok-item' }]);
    // A forged report, with an address or a made-up token, changes nothing.
    await act(async () => post({ type: LOCATION_MESSAGE, href: `${BASE}j1/about.html`, token: 'made-up' }));
    await settle();
    assert.equal(urlBar(), 'https://site.test/news/item.html');
    fireEvent.click(screen.getByTestId('viewer-back'));
    await settle();
    assert.equal(urlBar(), 'https://site.test/');
  });

  it('a page that sends the frame on by itself (a meta refresh) is replaced in the history; a click in the frame is a new entry', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    const post = (token: string) => window.dispatchEvent(new MessageEvent('message', { data: { type: LOCATION_MESSAGE, token }, source: frame().contentWindow, origin: ORIGIN }));
    const activation = { isActive: false };
    Object.defineProperty(navigator, 'userActivation', { value: activation, configurable: true });
    try {
      await act(async () => post('tok-item'));
      await settle();
      assert.equal(urlBar(), 'https://site.test/news/item.html');
      assert.equal((screen.getByTestId('viewer-back') as HTMLButtonElement).disabled, true, 'the refreshing start page was replaced');
      fireEvent.click(screen.getAllByTestId('page-item')[1]!);
      await settle();
      // Followed by a click in the frame: a new entry, so Back returns to the page clicked from.
      activation.isActive = true;
      frame().focus();
      await act(async () => post('tok-item'));
      await settle();
      assert.equal(urlBar(), 'https://site.test/news/item.html');
      fireEvent.click(screen.getByTestId('viewer-back'));
      await settle();
      assert.equal(urlBar(), 'https://site.test/about.html');
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
    }
  });

  it('shows "not in this archive" for a link clicked in the frame, never for a message the page posts on its own', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    const before = urlBar();
    const post = () => window.dispatchEvent(new MessageEvent('message', { data: { type: MISSING_MESSAGE, href: 'https://bank.test/login' }, source: frame().contentWindow, origin: ORIGIN }));
    const activation = { isActive: false };
    Object.defineProperty(navigator, 'userActivation', { value: activation, configurable: true });
    try {
      await act(async () => post());
      await settle();
      assert.equal(urlBar(), before, 'no click: the address bar stays');
      // A click in the app (not in the frame) does not count either.
      activation.isActive = true;
      await act(async () => post());
      await settle();
      assert.equal(urlBar(), before);
      frame().focus();
      await act(async () => post());
      await settle();
      assert.equal(urlBar(), 'https://bank.test/login');
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
    }
  });

  it("says that forms don't submit in an archived copy when one is submitted in the frame, never for a message the page posts on its own", async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    const post = () => window.dispatchEvent(new MessageEvent('message', { data: { type: FORM_MESSAGE }, source: frame().contentWindow, origin: ORIGIN }));
    const activation = { isActive: false };
    Object.defineProperty(navigator, 'userActivation', { value: activation, configurable: true });
    try {
      await act(async () => post());
      await settle();
      assert.equal(screen.queryByTestId('viewer-form-notice'), null, 'no click or key in the frame: nothing said');
      activation.isActive = true;
      frame().focus();
      await act(async () => post());
      await settle();
      assert.match(screen.getByTestId('viewer-form-notice').textContent ?? '', /Forms don't submit in an archived copy/);
      fireEvent.click(screen.getAllByTestId('page-item')[1]!);
      await settle();
      assert.equal(screen.queryByTestId('viewer-form-notice'), null, 'another page: the notice goes');
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
    }
  });

  it('says so when the frame navigates without reporting where', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    fireEvent.load(frame());
    assert.match(urlBar(), /address not reported/);
  });

  it("refuses a frame that reports from another origin than its archive's, and shows the archive's page again", async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.load(frame());
    frame().src = 'about:blank';
    await act(async () => window.dispatchEvent(new MessageEvent('message', { data: { type: LOCATION_MESSAGE, token: 'tok-item' }, source: frame().contentWindow, origin: 'http://other.localhost:4001' })));
    await settle();
    assert.match(screen.getByTestId('viewer-refused').textContent ?? '', /http:\/\/other\.localhost:4001, outside this archive/);
    assert.equal(frame().src, `${BASE}j1/index.html`, 'back on the page it showed');
    assert.deepEqual(api.callsTo('archives.frameLocation'), [], 'its token is not even asked about');
    assert.equal(urlBar(), 'https://site.test/');
  });

  it("shows the archive's scripts setting and reloads the page when the archivist allows them", async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    const notice = screen.getByTestId('viewer-scripts');
    assert.match(notice.textContent ?? '', /Scripts are off for this archive/);
    fireEvent.load(frame());
    frame().src = 'about:blank';
    await act(async () => fireEvent.click(screen.getByTestId('viewer-scripts-toggle')));
    await settle();
    assert.deepEqual(api.callsTo('archives.setScripts'), [{ id: 'j1', allowed: true }]);
    assert.equal(screen.getByTestId('viewer-scripts').getAttribute('data-allowed'), 'true');
    assert.equal(frame().src, `${BASE}j1/index.html`, 'reloaded with its scripts');
  });

  it('has no scripts setting where the host runs every page\'s scripts (the desktop app)', async () => {
    scripts = { allowed: true, switchable: false };
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    assert.equal(screen.queryByTestId('viewer-scripts'), null);
  });

  it("names the mirror's start page, which is not a harvested page", async () => {
    setApi(fakeApi({ 'archives.lookup': () => ok(null), 'archives.pages': () => ok({ total: 0, rows: [] }) }));
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    assert.equal(urlBar(), 'Start page of this archive (links to each seed)');
    assert.match(screen.getByText(/No pages in this archive yet/).textContent ?? '', /No pages/);
  });

  it('searches pages and shows the mirror path on the web host', async () => {
    useNav.getState().openViewer('j1');
    render(<Viewer />);
    await settle();
    fireEvent.change(screen.getByTestId('page-search'), { target: { value: 'about' } });
    await act(async () => new Promise((r) => setTimeout(r, 300)));
    assert.deepEqual(api.callsTo('archives.pages').at(-1), { id: 'j1', offset: 0, limit: 200, search: 'about' });
    assert.equal(screen.getAllByTestId('page-item').length, 1);
    assert.equal(screen.getByTestId('page-total').textContent, '1 page');
    await act(async () => fireEvent.click(screen.getByTestId('viewer-open-browser')));
    assert.match(screen.getByTestId('viewer-browser-path').textContent ?? '', /\/data\/a\/mirror\/index.html/);
  });
});
