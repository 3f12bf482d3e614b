import { useRef, useState, type FormEvent } from 'react';
import type { ImportStatus } from '../../../shared/appViews.js';
import { useDialog } from '../../lib/dialog.js';
import { formatBytes, formatCount, plural } from '../../lib/format.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { commandValue } from '../../stores/command.js';
import { selectImport, useImports } from '../../stores/imports.js';
import { useNav } from '../../stores/nav.js';

/** The paths typed or picked, one a line. */
const pathsOf = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

/**
 * "Import…": WARC and WACZ files (or folders of them) made by other tools become a new archive in
 * the library, as `harvest import` makes one. The desktop app picks files and folders with its
 * dialogs; in the browser the paths are typed, as paths on the machine running Harvest.
 */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const isWeb = useApp(selectIsWebHost);
  const [paths, setPaths] = useState('');
  const [outDir, setOutDir] = useState('');
  const [name, setName] = useState('');
  const [importId, setImportId] = useState<string | null>(null);
  const status = useImports(selectImport(importId));
  const running = status?.state === 'running' || status?.state === 'pausing';
  const dialog = useDialog<HTMLDivElement>(onClose);
  const closeButton = useRef<HTMLButtonElement>(null);

  const add = (more: string[]): void => setPaths((text) => [...pathsOf(text), ...more].join('\n'));
  const chooseFiles = async (): Promise<void> => {
    const picked = await commandValue('dialog.chooseImportFiles', {});
    if (picked?.paths) add(picked.paths);
  };
  const chooseFolder = async (): Promise<void> => {
    const picked = await commandValue('dialog.chooseFolder', { title: 'Import every WARC and WACZ file in a folder' });
    if (picked?.path) add([picked.path]);
  };
  const chooseOut = async (): Promise<void> => {
    const picked = await commandValue('dialog.chooseFolder', { title: 'The new archive’s folder' });
    if (picked?.path) setOutDir(picked.path);
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const list = pathsOf(paths);
    if (list.length === 0) return;
    const started = await useImports.getState().start({ paths: list, ...(outDir.trim() ? { outDir: outDir.trim() } : {}), ...(name.trim() ? { name: name.trim() } : {}) });
    if (!started) return;
    setImportId(started.importId);
    // The Import button goes; the keyboard's place stays in the dialog, on what can be done next.
    closeButton.current?.focus();
  };

  const openArchive = (jobId: string): void => {
    onClose();
    useNav.getState().openViewer(jobId);
  };

  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal import-dialog" role="dialog" aria-modal="true" aria-labelledby="import-title" tabIndex={-1} data-testid="import-dialog">
        <h2 id="import-title">Import web archives</h2>
        <form onSubmit={(e) => void submit(e)}>
          <fieldset disabled={!!status} className="export-choices">
            <label htmlFor="import-paths">WARC or WACZ files, or folders holding them (one a line)</label>
            <textarea
              id="import-paths"
              rows={3}
              value={paths}
              onChange={(e) => setPaths(e.target.value)}
              placeholder={isWeb ? '/path/on/the/harvest/machine/crawl.warc.gz' : 'Choose files or a folder, or type paths'}
              aria-describedby="import-paths-hint"
              data-testid="import-paths"
            />
            <small id="import-paths-hint" className="hint">
              {isWeb
                ? 'Paths on the machine running Harvest. A folder means its .warc, .warc.gz and .wacz files (not its subfolders).'
                : 'A folder means its .warc, .warc.gz and .wacz files (not its subfolders).'}
            </small>
            {!isWeb && (
              <div className="row">
                <button type="button" onClick={() => void chooseFiles()} data-testid="import-choose-files">
                  Choose files…
                </button>
                <button type="button" onClick={() => void chooseFolder()} data-testid="import-choose-folder">
                  Choose folder…
                </button>
              </div>
            )}
            <label htmlFor="import-out">New archive folder</label>
            <div className="row">
              <input
                id="import-out"
                value={outDir}
                onChange={(e) => setOutDir(e.target.value)}
                placeholder="A new folder in Harvest’s data folder"
                aria-describedby="import-out-hint"
                data-testid="import-out"
              />
              {!isWeb && (
                <button type="button" onClick={() => void chooseOut()} data-testid="import-choose-out">
                  Choose…
                </button>
              )}
            </div>
            <small id="import-out-hint" className="hint">
              An empty or new folder; leave it empty for one in the data folder.
            </small>
            <label htmlFor="import-name">Name</label>
            <input id="import-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Import of the first file" maxLength={200} data-testid="import-name" />
          </fieldset>
          {status && <ImportProgress status={status} />}
          <div className="modal-actions">
            <button type="button" ref={closeButton} onClick={onClose} data-testid="import-close">
              {running ? 'Close (the import goes on)' : status?.state === 'paused' ? 'Close (it stays paused)' : 'Close'}
            </button>
            {status && (status.state === 'running' || status.state === 'pausing') && status.progress.phase !== 'rewriting' && (
              <button type="button" disabled={status.state === 'pausing'} onClick={() => void useImports.getState().pause(status.importId)} data-testid="import-pause">
                {status.state === 'pausing' ? 'Pausing…' : 'Pause'}
              </button>
            )}
            {status?.state === 'paused' && (
              <button type="button" className="primary" onClick={() => void useImports.getState().resume(status.importId)} data-testid="import-resume">
                Resume
              </button>
            )}
            {!status && (
              <button className="primary" type="submit" disabled={pathsOf(paths).length === 0} data-testid="import-start">
                Import
              </button>
            )}
            {status?.state === 'done' && status.jobId && (
              <button type="button" className="primary" onClick={() => openArchive(status.jobId!)} data-testid="import-open">
                Open the archive
              </button>
            )}
            {status?.state === 'failed' && (
              <button type="button" onClick={() => setImportId(null)} data-testid="import-again">
                Change and try again
              </button>
            )}
          </div>
        </form>
      </div>
    </div>
  );
}

function ImportProgress({ status }: { status: ImportStatus }) {
  const { phase, done, total, records, damaged, duplicates } = status.progress;
  const fraction = status.state === 'done' ? 1 : total > 0 ? Math.min(1, done / total) : null;
  const percent = fraction === null ? null : Math.floor(fraction * 100);
  const skipped = `${duplicates > 0 ? `, ${plural(duplicates, 'duplicate')} left out` : ''}${damaged > 0 ? `, ${plural(damaged, 'record')} skipped` : ''}`;
  let message = '';
  if (status.state === 'pausing') message = `Pausing at the next record… ${formatBytes(done)} of ${formatBytes(total)} read`;
  else if (status.state === 'paused')
    message = `Paused at ${percent ?? 0}%: ${formatBytes(done)} of ${formatBytes(total)}, ${plural(records, 'record')}${skipped}. Resume goes on from there, here or by importing the same files into the same folder.`;
  else if (status.state === 'running') {
    if (phase === 'starting') message = 'Starting…';
    else if (phase === 'reading') message = `Reading records… ${percent ?? 0}%: ${formatBytes(done)} of ${formatBytes(total)}, ${plural(records, 'record')}${skipped}`;
    else message = `Writing the offline copy… ${percent ?? 0}%: ${formatCount(done)} of ${formatCount(total)} URLs checked`;
  } else if (status.state === 'done' && status.result) {
    const r = status.result;
    message =
      `Imported ${plural(r.records, 'record')} from ${plural(r.files, 'file')} in ${plural(r.captures, 'capture')}` +
      `${r.duplicates > 0 ? `, ${plural(r.duplicates, 'duplicate record')} stored once` : ''}` +
      `${r.skipped > 0 ? ` (${plural(r.skipped, 'damaged record')} skipped)` : ''} into ${status.outDir}; it is in the library.`;
  } else if (status.state === 'failed') message = `Import failed: ${status.error ?? 'unknown error'}`;
  return (
    <div className="export-status" data-testid="import-status" data-state={status.state}>
      <div
        className={`progress-bar${status.state === 'failed' ? ' failed' : ''}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-label="Import progress"
        data-testid="import-progress"
      >
        <div className={`progress-fill${percent === null && status.state === 'running' ? ' indeterminate' : ''}`} style={{ width: `${percent ?? 0}%` }} />
      </div>
      <p role="status" data-testid="import-message">
        {message}
      </p>
    </div>
  );
}
