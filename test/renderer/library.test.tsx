import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { dispatchHostEvent } from '../../renderer/bootstrap.js';
import { Library } from '../../renderer/features/Library/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useNav } from '../../renderer/stores/nav.js';
import type { CaptureSummary } from '../../shared/captures.js';
import type { ArchiveSummary, ExportStatus, JobSummary } from '../../shared/appViews.js';
import { DublinCoreSchema, type DublinCore } from '../../shared/metadata.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const archive = (jobId: string, pages = 10): ArchiveSummary => ({
  jobId,
  name: `Archive ${jobId}`,
  seeds: [`http://${jobId}.test/`],
  archiveDir: `/data/${jobId}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-02T00:00:00.000Z',
  status: 'finished',
  pages,
  bytesOnDisk: 2048,
});

const metadata: DublinCore = DublinCoreSchema.parse({ title: 'T', subject: ['a', 'b'], language: ['en'] });

const capture = (id: number): CaptureSummary => ({
  id,
  startedAt: `2026-0${id}-01T00:00:00.000Z`,
  finishedAt: `2026-0${id}-01T01:00:00.000Z`,
  state: 'finished',
  durationMs: 3_600_000,
  counts: { new: 1, restored: 0, changed: 0, markupOnly: 0, unchanged: 0, notModified: 0, removed: 0, httpErrors: 0, failed: 0 },
  bytesAdded: 100,
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('library', () => {
  let api: FakeApi;
  let exportArgs: unknown;
  let listed: ArchiveSummary[] = [];
  beforeEach(() => {
    listed = [];
    resetStores();
    useApp.setState({ info: appInfo('web') });
    const running: ExportStatus = { exportId: 'x1', jobId: 'a', format: 'bagit', outPath: '/out/a-bag', state: 'running', progress: { phase: 'hashing', doneBytes: 0, totalBytes: 100 }, result: null, error: null };
    api = fakeApi({
      'jobs.delete': (a) =>
        ok(
          a.deleteArchive
            ? { archiveDir: `/data/${a.id}`, kept: false, removed: ['catalogue.sqlite', 'mirror'], leftBehind: ['notes.txt'], folderRemoved: false, refused: null }
            : { archiveDir: `/data/${a.id}`, kept: true, removed: [], leftBehind: [], folderRemoved: false, refused: null },
        ),
      'archives.open': (a) => (a.archiveDir === '/data/b' ? ok({ id: 'b2', job: { name: 'Archive b' }, archiveDir: '/data/b' } as unknown as JobSummary) : { ok: false, error: { code: 'invalid-args', message: `${a.archiveDir} is not a Harvest archive` } }),
      'archives.list': () => ok(listed),
      'archives.reveal': () => ok({ path: '/data/a' }),
      'archives.export': (a) => ((exportArgs = a), ok(running)),
      'exports.cancel': () => ok({ ...running, state: 'cancelled' }),
      'archives.captures': (a) => ok(a.id === 'a' ? [capture(1), capture(2)] : [capture(1)]),
      'archives.getMetadata': () => ok(metadata),
      'archives.setMetadata': (a) => ok(a.metadata as DublinCore),
    });
    setApi(api);
    useArchives.setState({ list: [archive('a'), archive('b', 0)], loaded: true });
  });
  afterEach(cleanup);

  it('explains what to do when empty', () => {
    useArchives.setState({ list: [], loaded: true });
    render(<Library />);
    assert.match(screen.getByTestId('library-empty').textContent ?? '', /Jobs screen/);
  });

  it('deletes a job keeping its folder by default, says where it is, and opens it again', async () => {
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[1]!).getByTestId('archive-delete'));
    assert.equal((screen.getByTestId('archive-delete-keep') as HTMLInputElement).checked, true, 'keeping is the default');
    assert.equal(screen.getByTestId('archive-delete-confirm-ok').textContent, 'Delete job, keep folder');
    await act(async () => fireEvent.click(screen.getByTestId('archive-delete-confirm-ok')));
    assert.deepEqual(api.callsTo('jobs.delete'), [{ id: 'b', deleteArchive: false }]);
    assert.match(screen.getByTestId('delete-report-text').textContent ?? '', /kept at \/data\/b; Open archive… in the Library adds it back/);

    fireEvent.click(screen.getByTestId('library-open'));
    fireEvent.change(screen.getByTestId('library-open-path'), { target: { value: ' /data/nothing ' } });
    await act(async () => fireEvent.click(screen.getByTestId('library-open-add')));
    assert.deepEqual(api.callsTo('archives.open'), [{ archiveDir: '/data/nothing' }]);
    assert.ok(screen.getByTestId('library-open-form'), 'the form stays to correct the path');
    listed = [archive('a'), { ...archive('b'), jobId: 'b2' }];
    fireEvent.change(screen.getByTestId('library-open-path'), { target: { value: '/data/b' } });
    await act(async () => fireEvent.click(screen.getByTestId('library-open-add')));
    await settle();
    assert.deepEqual(screen.getAllByTestId('archive-row').map((r) => r.getAttribute('data-job-id')), ['a', 'b2']);
    assert.equal(screen.queryByTestId('library-open-form'), null);
    assert.equal(screen.queryByTestId('delete-report'), null, 'the notice about the deletion goes once the folder is back');
  });

  it('lists archives, opens one in the viewer, shows its folder on the web host and deletes the archive after confirmation', async () => {
    render(<Library />);
    const rows = screen.getAllByTestId('archive-row');
    assert.equal(rows.length, 2);
    assert.equal(within(rows[0]!).getByTestId('archive-pages').textContent, '10');
    assert.equal((within(rows[1]!).getByTestId('archive-open') as HTMLButtonElement).disabled, true);
    fireEvent.click(within(rows[0]!).getByTestId('archive-open'));
    assert.deepEqual({ ...useNav.getState().viewer, serial: 0 }, { jobId: 'a', localPath: 'index.html', serial: 0 });
    await act(async () => fireEvent.click(within(rows[0]!).getByTestId('archive-reveal')));
    assert.equal(screen.getByTestId('archive-path').textContent, 'Folder: /data/a');
    fireEvent.click(within(rows[1]!).getByTestId('archive-delete'));
    fireEvent.click(screen.getByTestId('archive-delete-files'));
    assert.equal(screen.getByTestId('archive-delete-confirm-ok').textContent, 'Delete job and archive');
    await act(async () => fireEvent.click(screen.getByTestId('archive-delete-confirm-ok')));
    assert.deepEqual(api.callsTo('jobs.delete'), [{ id: 'b', deleteArchive: true }]);
    assert.equal(screen.getAllByTestId('archive-row').length, 1);
    assert.match(screen.getByTestId('delete-report-text').textContent ?? '', /the folder \/data\/b stays\. Left there because Harvest did not make it: notes\.txt/);
  });

  it('runs an export: choices, progress from events, cancel', async () => {
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[0]!).getByTestId('archive-export'));
    assert.equal(screen.queryByTestId('export-choose-path'), null, 'no native dialog on the web host');
    assert.equal(screen.queryByTestId('export-include-mirror'), null);
    fireEvent.click(screen.getByTestId('export-format-bagit'));
    fireEvent.click(screen.getByTestId('export-include-mirror'));
    fireEvent.change(screen.getByTestId('export-path'), { target: { value: ' /out/a-bag ' } });
    await act(async () => fireEvent.click(screen.getByTestId('export-start')));
    assert.deepEqual(exportArgs, { id: 'a', format: 'bagit', includeMirror: true, outPath: '/out/a-bag' });
    const base = { exportId: 'x1', jobId: 'a', format: 'bagit' as const, outPath: '/out/a-bag', result: null, error: null };
    act(() => dispatchHostEvent({ type: 'export', export: { ...base, state: 'running', progress: { phase: 'hashing', doneBytes: 25, totalBytes: 100 } } }));
    assert.equal(screen.getByTestId('export-progress').getAttribute('aria-valuenow'), '25');
    assert.equal(screen.getByTestId('export-message').textContent, 'Hashing… 25%');
    // A later phase reports its own bytes from zero: the bar and its label agree and do not go back.
    act(() => dispatchHostEvent({ type: 'export', export: { ...base, state: 'running', progress: { phase: 'writing', doneBytes: 10, totalBytes: 100 } } }));
    assert.equal(screen.getByTestId('export-progress').getAttribute('aria-valuenow'), '25');
    assert.equal(screen.getByTestId('export-message').textContent, 'Writing… 25%');
    act(() => dispatchHostEvent({ type: 'export', export: { ...base, state: 'running', progress: { phase: 'writing', doneBytes: 60, totalBytes: 100 } } }));
    assert.equal(screen.getByTestId('export-progress').getAttribute('aria-valuenow'), '60');
    assert.equal(screen.getByTestId('export-message').textContent, 'Writing… 60%');
    await act(async () => fireEvent.click(screen.getByTestId('export-cancel')));
    assert.deepEqual(api.callsTo('exports.cancel'), [{ exportId: 'x1' }]);
    assert.equal(screen.getByTestId('export-status').getAttribute('data-state'), 'cancelled');
    fireEvent.click(screen.getByTestId('export-close'));
    assert.equal(screen.queryByTestId('export-dialog'), null);
  });

  it('exports one capture of an archive that has several', async () => {
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[0]!).getByTestId('archive-export'));
    await settle();
    const select = screen.getByTestId('export-capture') as HTMLSelectElement;
    assert.deepEqual(
      Array.from(select.options).map((o) => o.value),
      ['', '1', '2'],
    );
    fireEvent.change(select, { target: { value: '2' } });
    await act(async () => fireEvent.click(screen.getByTestId('export-start')));
    assert.deepEqual(exportArgs, { id: 'a', format: 'wacz', includeMirror: false, capture: 2 });
  });

  it('offers no capture choice for one capture, nor for a ZIP', async () => {
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[1]!).getByTestId('archive-export'));
    await settle();
    assert.equal(screen.queryByTestId('export-capture'), null);
    cleanup();
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[0]!).getByTestId('archive-export'));
    await settle();
    fireEvent.change(screen.getByTestId('export-capture'), { target: { value: '1' } });
    fireEvent.click(screen.getByTestId('export-format-zip'));
    assert.equal((screen.getByTestId('export-capture') as HTMLSelectElement).disabled, true);
    await act(async () => fireEvent.click(screen.getByTestId('export-start')));
    assert.deepEqual(exportArgs, { id: 'a', format: 'zip', includeMirror: false });
  });

  it('shows a finished export with its result', async () => {
    useApp.setState({ info: appInfo('electron') });
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[0]!).getByTestId('archive-export'));
    assert.ok(screen.getByTestId('export-choose-path'));
    await act(async () => fireEvent.click(screen.getByTestId('export-start')));
    act(() =>
      dispatchHostEvent({
        type: 'export',
        export: { exportId: 'x1', jobId: 'a', format: 'wacz', outPath: '/out/a.wacz', state: 'done', progress: { phase: 'done', doneBytes: 100, totalBytes: 100 }, result: { bytes: 4096, files: 3 }, error: null, downloadPath: '/t/tok/download/x1' },
      }),
    );
    assert.equal(screen.getByTestId('export-message').textContent, 'Done: /out/a.wacz (4.1 kB, 3 files)');
    assert.equal(screen.getByTestId('export-download').getAttribute('href'), '/t/tok/download/x1');
    // A second export starts from the same dialog.
    fireEvent.click(screen.getByTestId('export-again'));
    assert.equal(screen.queryByTestId('export-status'), null);
    assert.ok(screen.getByTestId('export-start'));
    assert.equal((screen.getByTestId('export-format-warc') as HTMLInputElement).disabled, false);
  });

  it('edits Dublin Core metadata', async () => {
    render(<Library />);
    fireEvent.click(within(screen.getAllByTestId('archive-row')[0]!).getByTestId('archive-metadata'));
    await settle();
    assert.equal((screen.getByTestId('metadata-subject') as HTMLInputElement).value, 'a, b');
    fireEvent.change(screen.getByTestId('metadata-subject'), { target: { value: 'history, , archives ' } });
    fireEvent.change(screen.getByTestId('metadata-creator'), { target: { value: 'Special Collections' } });
    await act(async () => fireEvent.click(screen.getByTestId('metadata-save')));
    const saved = api.callsTo('archives.setMetadata')[0] as { id: string; metadata: DublinCore };
    assert.equal(saved.id, 'a');
    assert.deepEqual(saved.metadata.subject, ['history', 'archives']);
    assert.equal(saved.metadata.creator, 'Special Collections');
    assert.equal(screen.queryByTestId('metadata-editor'), null);
  });
});
