import { useState } from 'react';
import type { ArchiveSummary } from '../../../shared/contract.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/metadata.js';
import { formatBytes } from '../../lib/format.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { commandValue } from '../../stores/command.js';
import { selectExport, useExports } from '../../stores/exports.js';

const FORMAT_LABELS: Record<ExportFormat, string> = {
  wacz: 'WACZ (web archive collection, opens in ReplayWeb.page)',
  warc: 'WARC (the raw archival record)',
  zip: 'ZIP of the offline copy',
  bagit: 'BagIt bag (for digital preservation repositories)',
};

/** Choose a format and destination, then follow the export's progress until it is done. */
export function ExportDialog({ archive, onClose }: { archive: ArchiveSummary; onClose(): void }) {
  const isWeb = useApp(selectIsWebHost);
  const [format, setFormat] = useState<ExportFormat>('wacz');
  const [includeMirror, setIncludeMirror] = useState(false);
  const [outPath, setOutPath] = useState('');
  const [exportId, setExportId] = useState<string | null>(null);
  const status = useExports(selectExport(exportId));
  const running = status?.state === 'running';

  const choosePath = async (): Promise<void> => {
    const chosen = await commandValue('dialog.chooseExportPath', { id: archive.jobId, format });
    if (chosen?.path) setOutPath(chosen.path);
  };

  const start = async (): Promise<void> => {
    const started = await useExports.getState().start({
      jobId: archive.jobId,
      format,
      includeMirror: format === 'bagit' && includeMirror,
      ...(outPath.trim() ? { outPath: outPath.trim() } : {}),
    });
    if (started) setExportId(started.exportId);
  };

  const fraction = status && status.progress.totalBytes > 0 ? Math.min(1, status.progress.doneBytes / status.progress.totalBytes) : null;

  return (
    <div className="modal-backdrop" onKeyDown={(e) => e.key === 'Escape' && !running && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-label={`Export ${archive.name}`} data-testid="export-dialog">
        <h2>Export “{archive.name}”</h2>
        <fieldset disabled={!!status} className="export-choices">
          <legend>Format</legend>
          {EXPORT_FORMATS.map((f) => (
            <label key={f} className="row">
              <input type="radio" name="export-format" value={f} checked={format === f} onChange={() => setFormat(f)} data-testid={`export-format-${f}`} />
              {FORMAT_LABELS[f]}
            </label>
          ))}
          {format === 'bagit' && (
            <label className="row">
              <input type="checkbox" checked={includeMirror} onChange={(e) => setIncludeMirror(e.target.checked)} data-testid="export-include-mirror" />
              Include the offline copy (mirror) in the bag
            </label>
          )}
          <label htmlFor="export-path">Save to</label>
          <div className="row">
            <input
              id="export-path"
              value={outPath}
              onChange={(e) => setOutPath(e.target.value)}
              placeholder="Beside the archive folder, with a fresh name"
              data-testid="export-path"
            />
            {!isWeb && (
              <button type="button" onClick={() => void choosePath()} data-testid="export-choose-path">
                Choose…
              </button>
            )}
          </div>
          {isWeb && <small className="hint">Type a path on the machine running Harvest, or leave empty.</small>}
        </fieldset>
        {status && (
          <div className="export-status" data-testid="export-status" data-state={status.state}>
            <div
              className="progress-bar"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={fraction == null ? undefined : Math.round(fraction * 100)}
              data-testid="export-progress"
            >
              <div className={`progress-fill${fraction == null && running ? ' indeterminate' : ''}`} style={{ width: `${((status.state === 'done' ? 1 : fraction ?? 0) * 100).toFixed(1)}%` }} />
            </div>
            <p data-testid="export-message">
              {status.state === 'running' && `${status.progress.phase}… ${formatBytes(status.progress.doneBytes)}${status.progress.totalBytes ? ` of ${formatBytes(status.progress.totalBytes)}` : ''}`}
              {status.state === 'done' && `Done: ${status.outPath}${status.result ? ` (${formatBytes(status.result.bytes)}, ${status.result.files} files)` : ''}`}
              {status.state === 'failed' && `Failed: ${status.error ?? 'unknown error'}`}
              {status.state === 'cancelled' && 'Cancelled.'}
            </p>
          </div>
        )}
        <div className="modal-actions">
          {running ? (
            <button onClick={() => status && void useExports.getState().cancel(status.exportId)} data-testid="export-cancel">
              Cancel export
            </button>
          ) : (
            <button onClick={onClose} data-testid="export-close">
              Close
            </button>
          )}
          {!status && (
            <button className="primary" onClick={() => void start()} data-testid="export-start">
              Export
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
