import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { dispatchHostEvent } from '../../renderer/bootstrap.js';
import { Library } from '../../renderer/features/Library/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useImports } from '../../renderer/stores/imports.js';
import { useNav } from '../../renderer/stores/nav.js';
import { useToasts } from '../../renderer/stores/toasts.js';
import type { ArchiveSummary, ImportStatus } from '../../shared/appViews.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const imported: ArchiveSummary = {
  jobId: 'imp',
  name: 'Reading room',
  seeds: ['http://room.test/'],
  archiveDir: '/archives/room',
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:00.000Z',
  status: 'finished',
  pages: 2,
  bytesOnDisk: 4096,
};

const running = (over: Partial<ImportStatus['progress']> = {}): ImportStatus => ({
  importId: 'i1',
  paths: ['/in/a.warc.gz', '/in/more'],
  outDir: '/archives/room',
  state: 'running',
  progress: { phase: 'reading', done: 0, total: 2048, records: 0, damaged: 0, duplicates: 0, ...over },
  jobId: null,
  result: null,
  error: null,
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('Import… in the Library', () => {
  let api: FakeApi;
  let listed: ArchiveSummary[];
  beforeEach(() => {
    resetStores();
    listed = [];
    api = fakeApi({
      'archives.list': () => ok(listed),
      'archives.import': (a) =>
        a.paths.includes('/nowhere.warc') ? { ok: false, error: { code: 'invalid-args', message: '/nowhere.warc: no such file or folder' } } : ok(running()),
      'archives.importPause': () => ok({ ...running({ done: 512, records: 7 }), state: 'pausing' }),
      'archives.importResume': () => ok(running({ done: 512, records: 7 })),
      'dialog.chooseImportFiles': () => ok({ paths: ['/in/a.warc.gz', '/in/b.wacz'] }),
      'dialog.chooseFolder': (a) => ok({ path: a.title?.startsWith('Import') ? '/in/folder' : '/archives/picked' }),
    });
    setApi(api);
    useArchives.setState({ list: [], loaded: true });
  });
  afterEach(cleanup);

  it('in the browser: typed paths, a folder and a name, then progress from events until the archive is in the Library', async () => {
    useApp.setState({ info: appInfo('web') });
    render(<Library />);
    fireEvent.click(screen.getByRole('button', { name: 'Import…' }));
    const dialog = screen.getByRole('dialog', { name: 'Import web archives' });
    assert.ok(dialog);
    assert.equal(screen.queryByTestId('import-choose-files'), null, 'no native dialog on the web host');
    const start = screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement;
    assert.equal(start.disabled, true, 'nothing to import yet');
    assert.equal(document.activeElement, screen.getByLabelText(/WARC or WACZ files/), 'the paths field has the focus');

    fireEvent.change(screen.getByLabelText(/WARC or WACZ files/), { target: { value: ' /in/a.warc.gz \n\n/in/more ' } });
    fireEvent.change(screen.getByLabelText('New archive folder'), { target: { value: ' /archives/room ' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Reading room' } });
    await act(async () => fireEvent.click(start));
    assert.deepEqual(api.callsTo('archives.import'), [{ paths: ['/in/a.warc.gz', '/in/more'], outDir: '/archives/room', name: 'Reading room' }]);
    assert.equal((screen.getByLabelText('Name') as HTMLInputElement).closest('fieldset')?.disabled, true, 'the choices are fixed while it runs');
    assert.equal(document.activeElement, screen.getByTestId('import-close'), 'the focus stays in the dialog');

    act(() => dispatchHostEvent({ type: 'import', import: running({ done: 512, records: 7, damaged: 1, duplicates: 3 }) }));
    const bar = screen.getByRole('progressbar', { name: 'Import progress' });
    assert.equal(bar.getAttribute('aria-valuenow'), '25');
    assert.equal(screen.getByTestId('import-message').textContent, 'Reading records… 25%: 512 bytes of 2.0 kB, 7 records, 3 duplicates left out, 1 record skipped');
    act(() => dispatchHostEvent({ type: 'import', import: running({ phase: 'rewriting', done: 3, total: 4, records: 9, damaged: 1 }) }));
    assert.equal(screen.getByTestId('import-message').textContent, 'Writing the offline copy… 75%: 3 of 4 URLs checked');
    assert.match(screen.getByTestId('import-close').textContent ?? '', /the import goes on/);

    listed = [imported];
    act(() =>
      dispatchHostEvent({
        type: 'import',
        import: { ...running(), state: 'done', jobId: 'imp', result: { files: 1, records: 9, captures: 1, documents: 2, skipped: 1, duplicates: 3 } },
      }),
    );
    await settle();
    assert.equal(bar.getAttribute('aria-valuenow'), '100');
    assert.equal(
      screen.getByTestId('import-message').textContent,
      'Imported 9 records from 1 file in 1 capture, 3 duplicate records stored once (1 damaged record skipped) into /archives/room; it is in the library.',
    );
    assert.equal(screen.getAllByTestId('archive-row').length, 1, 'the imported archive is listed');
    assert.match(useToasts.getState().toasts.at(-1)?.message ?? '', /Imported into \/archives\/room/);
    fireEvent.click(screen.getByRole('button', { name: 'Open the archive' }));
    assert.equal(screen.queryByTestId('import-dialog'), null);
    assert.equal(useNav.getState().viewer?.jobId, 'imp');
  });

  it('pauses and resumes an import, showing it pausing, then paused, then running', async () => {
    useApp.setState({ info: appInfo('web') });
    render(<Library />);
    fireEvent.click(screen.getByTestId('library-import'));
    fireEvent.change(screen.getByLabelText(/WARC or WACZ files/), { target: { value: '/in/a.warc.gz' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    act(() => dispatchHostEvent({ type: 'import', import: running({ done: 512, records: 7 }) }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pause' })));
    assert.deepEqual(api.callsTo('archives.importPause'), [{ importId: 'i1' }]);
    assert.equal((screen.getByTestId('import-pause') as HTMLButtonElement).disabled, true);
    assert.equal(screen.getByTestId('import-pause').textContent, 'Pausing…');
    assert.match(screen.getByTestId('import-message').textContent ?? '', /^Pausing at the next record/);

    act(() => dispatchHostEvent({ type: 'import', import: { ...running({ done: 1024, records: 9 }), state: 'paused' } }));
    assert.equal(screen.getByTestId('import-status').getAttribute('data-state'), 'paused');
    assert.equal(
      screen.getByTestId('import-message').textContent,
      'Paused at 50%: 1.0 kB of 2.0 kB, 9 records. Resume goes on from there, here or by importing the same files into the same folder.',
    );
    assert.equal(screen.queryByTestId('import-pause'), null);
    assert.equal(screen.getByTestId('import-close').textContent, 'Close (it stays paused)');
    // A late reply to the pause does not undo 'paused'.
    act(() => useImports.getState().apply({ ...running(), state: 'pausing' }));
    assert.equal(screen.getByTestId('import-status').getAttribute('data-state'), 'paused');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Resume' })));
    assert.deepEqual(api.callsTo('archives.importResume'), [{ importId: 'i1' }]);
    assert.equal(screen.getByTestId('import-status').getAttribute('data-state'), 'running');
    assert.equal(screen.getByRole('button', { name: 'Pause' }).hasAttribute('disabled'), false);
    act(() => dispatchHostEvent({ type: 'import', import: running({ phase: 'rewriting', done: 1, total: 4 }) }));
    assert.equal(screen.queryByTestId('import-pause'), null, 'no pause while the offline copy is written');
  });

  it('in the desktop app: files and a folder from the native dialogs, the destination too', async () => {
    useApp.setState({ info: appInfo('electron') });
    render(<Library />);
    fireEvent.click(screen.getByTestId('library-import'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Choose files…' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Choose folder…' })));
    assert.equal((screen.getByLabelText(/WARC or WACZ files/) as HTMLTextAreaElement).value, '/in/a.warc.gz\n/in/b.wacz\n/in/folder');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Choose…' })));
    assert.equal((screen.getByLabelText('New archive folder') as HTMLInputElement).value, '/archives/picked');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    assert.deepEqual(api.callsTo('archives.import'), [{ paths: ['/in/a.warc.gz', '/in/b.wacz', '/in/folder'], outDir: '/archives/picked' }]);
  });

  it('a refused import leaves the form as it was and says why; a failed one says why in the dialog; Escape closes it', async () => {
    useApp.setState({ info: appInfo('web') });
    render(<Library />);
    fireEvent.click(screen.getByTestId('library-import'));
    fireEvent.change(screen.getByLabelText(/WARC or WACZ files/), { target: { value: '/nowhere.warc' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    assert.equal(useToasts.getState().toasts.at(-1)?.message, '/nowhere.warc: no such file or folder');
    assert.equal(screen.queryByTestId('import-status'), null);
    assert.equal((screen.getByLabelText(/WARC or WACZ files/) as HTMLTextAreaElement).disabled, false);

    fireEvent.change(screen.getByLabelText(/WARC or WACZ files/), { target: { value: '/in/a.warc.gz' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    act(() => dispatchHostEvent({ type: 'import', import: { ...running(), state: 'failed', error: 'cannot create folder /archives/room: EACCES' } }));
    assert.equal(screen.getByTestId('import-status').getAttribute('data-state'), 'failed');
    assert.equal(screen.getByRole('status').textContent, 'Import failed: cannot create folder /archives/room: EACCES');
    fireEvent.click(screen.getByRole('button', { name: 'Change and try again' }));
    assert.equal(screen.queryByTestId('import-status'), null);
    assert.equal((screen.getByLabelText(/WARC or WACZ files/) as HTMLTextAreaElement).value, '/in/a.warc.gz');
    fireEvent.keyDown(document, { key: 'Escape' });
    assert.equal(screen.queryByTestId('import-dialog'), null);
  });
});
