import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Viewer } from '../../renderer/features/Viewer/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useNav } from '../../renderer/stores/nav.js';
import { HIGHLIGHT_MESSAGE, HIGHLIGHT_SCRIPT, markTerms } from '../../shared/frameHighlight.js';
import { LOCATION_MESSAGE } from '../../shared/frameLocation.js';
import { fakeApi, ok } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const marks = (root: Element) => [...root.querySelectorAll('mark[data-harvest-mark]')].map((m) => m.textContent);

function page(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  document.body.appendChild(div);
  return div;
}

describe('highlighting search words in a page', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('marks whole words as the index matches them: case and accents folded', () => {
    const root = page('<p>The Café opened a CAFE bar; cafeteria and <em>café</em>s.</p>');
    assert.equal(markTerms(root, [{ text: 'cafe', prefix: false }]), 3);
    assert.deepEqual(marks(root), ['Café', 'CAFE', 'café']);
    assert.equal(root.textContent, 'The Café opened a CAFE bar; cafeteria and cafés.');
  });

  it('marks prefixes, phrases and words in unspaced scripts, and leaves scripts and styles alone', () => {
    const root = page('<p>Manuscripts and a manuscript; the reading room.</p><p>東京都の図書館で</p><script>var manuscript = 1</script><style>.manuscript{}</style>');
    const n = markTerms(root, [
      { text: 'manuscript', prefix: true },
      { text: 'reading room', prefix: false },
      { text: '図書館', prefix: false },
    ]);
    assert.equal(n, 4);
    assert.deepEqual(marks(root), ['Manuscripts', 'manuscript', 'reading room', '図書館']);
    assert.equal(root.querySelector('script')!.textContent, 'var manuscript = 1');
  });

  it('takes words as text, never as markup', () => {
    const root = page('<p>a &lt;b&gt; tag</p>');
    markTerms(root, [{ text: '<b>', prefix: false }]);
    assert.equal(root.querySelector('b'), null);
    assert.equal(root.textContent, 'a <b> tag');
  });

  it("the page's script marks the words its parent posts, and nobody else's", () => {
    const root = page('<p>The reading room is open.</p>');
    new Function(HIGHLIGHT_SCRIPT)();
    window.dispatchEvent(new MessageEvent('message', { data: { type: HIGHLIGHT_MESSAGE, terms: [{ text: 'reading', prefix: false }] }, source: {} as Window }));
    assert.deepEqual(marks(root), [], 'a message from another window is ignored');
    window.dispatchEvent(new MessageEvent('message', { data: { type: HIGHLIGHT_MESSAGE, terms: [{ text: 'reading', prefix: false }] }, source: window.parent }));
    assert.deepEqual(marks(root), ['reading']);
  });
});

describe('viewer opened from a search hit', () => {
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    setApi(
      fakeApi({
        'archives.lookup': (a) => ok({ url: 'http://a.test/', title: 'Home', localPath: a.localPath }),
        'archives.pages': () => ok({ total: 0, rows: [] }),
        'archives.frameLocation': () => ok({ localPath: null }),
      }),
    );
  });
  afterEach(cleanup);

  it('posts the words to the frame, to the origin that reported loading, and stops when asked', async () => {
    useNav.getState().openViewer('a', 'a.test/index.html', [{ text: 'reading', prefix: false }]);
    render(<Viewer />);
    await act(async () => new Promise((r) => setTimeout(r, 5)));
    const frame = screen.getByTestId('viewer-frame') as HTMLIFrameElement;
    const posted: { data: unknown; origin: string }[] = [];
    (frame.contentWindow as unknown as { postMessage: (d: unknown, o: string) => void }).postMessage = (data, origin) => posted.push({ data, origin });
    const report = () =>
      act(async () => window.dispatchEvent(new MessageEvent('message', { data: { type: LOCATION_MESSAGE }, source: frame.contentWindow, origin: 'http://127.0.0.1:4001' })));
    await report();
    assert.deepEqual(posted, [{ data: { type: HIGHLIGHT_MESSAGE, terms: [{ text: 'reading', prefix: false }] }, origin: 'http://127.0.0.1:4001' }]);
    assert.match(screen.getByTestId('viewer-highlight').textContent ?? '', /Highlighting reading/);
    await act(async () => screen.getByTestId('viewer-highlight-clear').click());
    await report();
    assert.equal(posted.length, 1, 'no words after Stop highlighting');
    assert.equal(screen.queryByTestId('viewer-highlight'), null);
  });
});
