import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Search } from '../../renderer/features/Search/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useNav } from '../../renderer/stores/nav.js';
import { useToasts } from '../../renderer/stores/toasts.js';
import type { ArchiveSummary } from '../../shared/appViews.js';
import type { SearchHitRow, SearchReply } from '../../shared/search.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const archive = (jobId: string): ArchiveSummary => ({
  jobId,
  name: `Archive ${jobId}`,
  seeds: [`http://${jobId}.test/`],
  archiveDir: `/data/${jobId}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-02T00:00:00.000Z',
  status: 'finished',
  pages: 10,
  bytesOnDisk: 2048,
});

const hit = (jobId: string, n: number, over: Partial<SearchHitRow> = {}): SearchHitRow => ({
  jobId,
  url: `http://${jobId}.test/page-${n}.html`,
  title: `Page ${n}`,
  kind: 'html',
  capture: 1,
  capturedAt: '2026-03-04T10:20:00.000Z',
  snippet: [
    { text: 'the ', mark: false },
    { text: 'reading', mark: true },
    { text: ' room <b>opens</b>', mark: false },
  ],
  score: 10 - n,
  localPath: `${jobId}.test/page-${n}.html`,
  ...over,
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('search screen', () => {
  let api: FakeApi;
  const TOTAL = 45;
  /** Ranked of TOTAL per archive: all unless a test says otherwise. */
  let ranked = TOTAL;
  beforeEach(() => {
    ranked = TOTAL;
    resetStores();
    useApp.setState({ info: appInfo('web') });
    useArchives.setState({ list: [archive('a'), archive('b')], loaded: true });
    api = fakeApi({
      'archives.search': (a): ReturnType<typeof ok<SearchReply>> | { ok: false; error: { code: 'invalid-query'; message: string } } => {
        if (a.query.includes('"')) return { ok: false, error: { code: 'invalid-query', message: 'unmatched quote at character 1: close the phrase with another "' } };
        const offset = a.offset ?? 0;
        const hits = a.ids.flatMap((id) => Array.from({ length: Math.max(0, Math.min(20, ranked - offset)) }, (_, i) => hit(id, offset + i + 1))).slice(0, 20);
        return ok({ total: TOTAL * a.ids.length, ranked: ranked * a.ids.length, hits, terms: [{ text: 'reading', prefix: false }, { text: 'room', prefix: true }], unindexed: a.ids.includes('b') ? [{ jobId: 'b', name: 'Archive b' }] : [] });
      },
    });
    setApi(api);
  });
  afterEach(cleanup);

  const search = async (query: string): Promise<void> => {
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: query } });
    fireEvent.click(screen.getByTestId('search-submit'));
    await settle();
  };

  it('searches the archive open in the viewer and shows title, URL, capture time and the snippet with its words marked', async () => {
    useNav.setState({ viewer: { jobId: 'a', localPath: 'index.html', serial: 1 } });
    render(<Search />);
    await search('reading room*');
    assert.deepEqual(api.callsTo('archives.search'), [{ ids: ['a'], query: 'reading room*', offset: 0, limit: 20 }]);
    const hits = screen.getAllByTestId('search-hit');
    assert.equal(hits.length, 20);
    const first = within(hits[0]!);
    assert.equal(first.getByTestId('hit-open').textContent, 'Page 1');
    assert.equal(first.getByTestId('hit-url').textContent, 'http://a.test/page-1.html');
    assert.match(first.getByTestId('hit-meta').textContent ?? '', /captured .*2026/);
    const snippet = first.getByTestId('hit-snippet');
    assert.deepEqual(
      [...snippet.querySelectorAll('mark')].map((m) => m.textContent),
      ['reading'],
    );
    // Text from the page is text, never markup.
    assert.equal(snippet.querySelector('b'), null);
    assert.match(snippet.textContent ?? '', /room <b>opens<\/b>/);
    assert.match(screen.getByTestId('search-total').textContent ?? '', /1–20 of 45 matches for reading room\*/);
  });

  it('pages through the results', async () => {
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('reading');
    assert.equal((screen.getByTestId('search-prev') as HTMLButtonElement).disabled, true);
    fireEvent.click(screen.getByTestId('search-next'));
    await settle();
    assert.equal((api.callsTo('archives.search').at(-1) as { offset: number }).offset, 20);
    assert.match(screen.getByTestId('search-total').textContent ?? '', /21–40 of 45/);
    fireEvent.click(screen.getByTestId('search-next'));
    await settle();
    assert.match(screen.getByTestId('search-total').textContent ?? '', /41–45 of 45/);
    assert.equal((screen.getByTestId('search-next') as HTMLButtonElement).disabled, true);
    fireEvent.click(screen.getByTestId('search-prev'));
    await settle();
    assert.equal((api.callsTo('archives.search').at(-1) as { offset: number }).offset, 20);
  });

  it('says when only the newest matches were ranked, and pages through those only', async () => {
    ranked = 30;
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('reading');
    assert.match(screen.getByTestId('search-total').textContent ?? '', /1–20 of 45 matches/);
    assert.match(screen.getByTestId('search-ranked').textContent ?? '', /newest 30 matching texts/);
    fireEvent.click(screen.getByTestId('search-next'));
    await settle();
    assert.match(screen.getByTestId('search-total').textContent ?? '', /21–30 of 45/);
    assert.equal((screen.getByTestId('search-next') as HTMLButtonElement).disabled, true);
  });

  it('says nothing of ranking when every match was ranked', async () => {
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('reading');
    assert.equal(screen.queryByTestId('search-ranked'), null);
  });

  it('opens a hit in the viewer with the words to highlight', async () => {
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('reading room*');
    fireEvent.click(within(screen.getAllByTestId('search-hit')[1]!).getByTestId('hit-open'));
    const nav = useNav.getState();
    assert.equal(nav.screen, 'viewer');
    assert.equal(nav.viewer?.jobId, 'a');
    assert.equal(nav.viewer?.localPath, 'a.test/page-2.html');
    assert.deepEqual(nav.viewer?.highlight, [{ text: 'reading', prefix: false }, { text: 'room', prefix: true }]);
  });

  it('says why a query cannot run, beside the box and not as a passing toast', async () => {
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('"reading room');
    assert.match(screen.getByTestId('search-error').textContent ?? '', /can't run: unmatched quote at character 1/);
    assert.equal(screen.queryByTestId('search-hit'), null);
    assert.equal(useToasts.getState().toasts.length, 0);
    await search('reading');
    assert.equal(screen.queryByTestId('search-error'), null);
  });

  it('searches every archive, names each hit\'s archive and the archives without an index', async () => {
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    fireEvent.change(screen.getByTestId('search-scope'), { target: { value: '*' } });
    await search('reading');
    assert.deepEqual((api.callsTo('archives.search').at(-1) as { ids: string[] }).ids, ['a', 'b']);
    assert.match(within(screen.getAllByTestId('search-hit')[0]!).getByTestId('hit-meta').textContent ?? '', /Archive a/);
    assert.match(screen.getByTestId('search-unindexed').textContent ?? '', /Archive b.*harvest reindex/);
  });

  it('a hit with no offline copy cannot be opened', async () => {
    setApi(fakeApi({ 'archives.search': () => ok({ total: 1, ranked: 1, hits: [hit('a', 1, { localPath: null, kind: 'pdf' })], terms: [], unindexed: [] }) }));
    useNav.setState({ searchScope: 'a' });
    render(<Search />);
    await search('reading');
    assert.equal((screen.getByTestId('hit-open') as HTMLButtonElement).disabled, true);
    assert.match(screen.getByTestId('hit-meta').textContent ?? '', /PDF .*no offline copy/);
  });
});
