import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Library } from '../../renderer/features/Library/index.js';
import { Viewer } from '../../renderer/features/Viewer/index.js';
import { thumbnailUrl } from '../../renderer/features/Viewer/frameLocation.js';
import { useApp } from '../../renderer/stores/app.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useNav } from '../../renderer/stores/nav.js';
import type { ArchiveSummary, PageRow } from '../../shared/appViews.js';
import { thumbnailSegments } from '../../shared/frameLocation.js';
import { fakeApi, ok } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const BASE = appInfo().viewerBase;
const archive = (jobId: string, hasThumbnails: boolean): ArchiveSummary => ({
  jobId,
  name: `Archive ${jobId}`,
  seeds: [`http://${jobId}.test/`],
  archiveDir: `/data/${jobId}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-02T00:00:00.000Z',
  status: 'finished',
  pages: 3,
  bytesOnDisk: 2048,
  hasThumbnails,
});
const pages: PageRow[] = [
  { url: 'http://a.test/', title: 'Home', localPath: 'a.test/index.html', thumbnail: true },
  { url: 'http://a.test/a b.html', title: 'Spaced', localPath: 'a.test/a b.html', thumbnail: true },
  { url: 'http://a.test/nothumb.html', title: 'No picture', localPath: 'a.test/nothumb.html', thumbnail: false },
];
const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('thumbnails', () => {
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    useArchives.setState({ list: [archive('a', true), archive('b', false)], loaded: true });
    setApi(
      fakeApi({
        'archives.pages': () => ok({ total: pages.length, rows: pages }),
        'archives.lookup': (a) => ok(pages.find((p) => p.localPath === a.localPath) ?? null),
        'archives.list': () => ok(useArchives.getState().list),
      }),
    );
  });
  afterEach(cleanup);

  it('are addressed on the archive origin under a route no mirror path can take, and only thumbnails are', () => {
    assert.equal(thumbnailUrl(BASE, 'a', 'a.test/a b.html'), `${BASE}a/.thumbnails/a.test/a%20b.html.png`);
    assert.deepEqual(thumbnailSegments(['.thumbnails', 'a.test', 'index.html.png']), ['a.test', 'index.html.png']);
    assert.equal(thumbnailSegments(['.thumbnails', 'a.test', 'index.html.full.png']), null, 'screenshots are not served');
    assert.equal(thumbnailSegments(['.thumbnails', 'a.test', 'index.html']), null);
    assert.equal(thumbnailSegments(['a.test', 'index.html.png']), null);
  });

  it("show in the viewer's page list, a placeholder where a page has none", async () => {
    useNav.getState().openViewer('a');
    render(<Viewer />);
    await settle();
    const items = screen.getAllByTestId('page-item');
    assert.equal((within(items[0]!).getByTestId('thumb') as HTMLImageElement).getAttribute('src'), `${BASE}a/.thumbnails/a.test/index.html.png`);
    assert.equal((within(items[1]!).getByTestId('thumb') as HTMLImageElement).getAttribute('src'), `${BASE}a/.thumbnails/a.test/a%20b.html.png`);
    assert.equal(within(items[2]!).queryByTestId('thumb'), null);
    assert.ok(within(items[2]!).getByTestId('thumb-placeholder'));
    // A picture that fails to load gives way to the placeholder.
    fireEvent.error(within(items[1]!).getByTestId('thumb'));
    assert.ok(within(items[1]!).getByTestId('thumb-placeholder'));
  });

  it('stay out of the page list of an archive without any', async () => {
    useNav.getState().openViewer('b');
    render(<Viewer />);
    await settle();
    assert.equal(screen.getAllByTestId('page-item').length, 3);
    assert.equal(screen.queryByTestId('thumb'), null);
    assert.equal(screen.queryByTestId('thumb-placeholder'), null);
  });

  it('make a grid of pages in the library for archives that have them; a card opens the page', async () => {
    render(<Library />);
    await settle();
    const rows = screen.getAllByTestId('archive-row');
    assert.equal(within(rows[1]!).queryByTestId('archive-grid'), null);
    fireEvent.click(within(rows[0]!).getByTestId('archive-grid'));
    await settle();
    const grid = screen.getByTestId('page-grid');
    assert.match(within(grid).getByTestId('page-grid-total').textContent ?? '', /3 pages/);
    const cards = within(grid).getAllByTestId('page-card');
    assert.equal(cards.length, 3);
    assert.match(cards[0]!.textContent ?? '', /Home.*http:\/\/a\.test\//);
    assert.equal(within(cards[0]!).getAllByTestId('thumb').length, 1);
    assert.ok(within(cards[2]!).getByTestId('thumb-placeholder'));
    fireEvent.click(cards[1]!);
    assert.equal(useNav.getState().screen, 'viewer');
    assert.deepEqual({ ...useNav.getState().viewer, serial: 0 }, { jobId: 'a', localPath: 'a.test/a b.html', serial: 0 });
  });
});
