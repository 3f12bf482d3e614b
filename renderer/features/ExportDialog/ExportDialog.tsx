import { useEffect, useRef, useState } from 'react';
import type { CaptureSummary } from '../../../shared/captures.js';
import type { ArchiveSummary } from '../../../shared/appViews.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/metadata.js';
import { useDialog } from '../../lib/dialog.js';
import { formatBytes, formatDate, plural } from '../../lib/format.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { commandValue } from '../../stores/command.js';
import { selectExport, useExports } from '../../stores/exports.js';
import { ExportList } from './ExportList.js';

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
  /** '' for every capture, else one capture's number. */
  const [capture, setCapture] = useState('');
  const [captures, setCaptures] = useState<CaptureSummary[]>([]);
  useEffect(() => {
    void commandValue('archives.captures', { id: archive.jobId }).then((list) => list && setCaptures(list));
  }, [archive.jobId]);
  const [exportId, setExportId] = useState<string | null>(null);
  const status = useExports(selectExport(exportId));
  const running = status?.state === 'running';
  // Escape closes the dialog, but not a running export's: Cancel export says what it does.
  const dialog = useDialog<HTMLDivElement>(() => !running && onClose());

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
      ...(capture !== '' && format !== 'zip' && { capture: Number(capture) }),
    });
    if (started) setExportId(started.exportId);
  };

  // Exporters report each phase's bytes afresh; the bar and its label show one figure that only grows.
  const peak = useRef<{ id: string | null; value: number }>({ id: null, value: 0 });
  const raw = status && status.progress.totalBytes > 0 ? Math.min(1, status.progress.doneBytes / status.progress.totalBytes) : null;
  if (peak.current.id !== exportId) peak.current = { id: exportId, value: 0 };
  if (status?.state === 'done') peak.current.value = 1;
  else if (raw !== null) peak.current.value = Math.max(peak.current.value, raw);
  const fraction = raw === null && peak.current.value === 0 ? null : peak.current.value;
  const percent = fraction === null ? null : Math.floor(fraction * 100);

  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal" role="dialog" aria-modal="true" aria-labelledby="export-title" tabIndex={-1} data-testid="export-dialog">
        <h2 id="export-title">Export “{archive.name}”</h2>
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
          {captures.length > 1 && (
            <>
              <label htmlFor="export-capture">Captures</label>
              <select
                id="export-capture"
                value={format === 'zip' ? '' : capture}
                disabled={format === 'zip'}
                onChange={(e) => setCapture(e.target.value)}
                data-testid="export-capture"
              >
                <option value="">Every capture ({captures.length})</option>
                {captures.map((c) => (
                  <option key={c.id} value={String(c.id)}>
                    Capture {c.id} only, {formatDate(c.startedAt)}
                  </option>
                ))}
              </select>
              {format === 'zip' && <small className="hint">A ZIP holds the offline copy, which shows the latest capture.</small>}
            </>
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
              aria-valuenow={percent ?? undefined}
              aria-label="Export progress"
              data-testid="export-progress"
            >
              <div className={`progress-fill${fraction == null && running ? ' indeterminate' : ''}`} style={{ width: `${percent ?? 0}%` }} />
            </div>
            {/* Read out as the phase, the end or the failure changes, not at every percent. */}
            <p data-testid="export-message" role="status">
              {status.state === 'running' && `${capitalise(status.progress.phase)}…${percent === null ? '' : ` ${percent}%`}`}
              {status.state === 'done' && `Done: ${status.outPath}${status.result ? ` (${formatBytes(status.result.bytes)}, ${plural(status.result.files, 'file')})` : ''}`}
              {status.state === 'failed' && `Failed: ${status.error ?? 'unknown error'}`}
              {status.state === 'cancelled' && 'Cancelled; nothing was kept.'}
            </p>
            {status.state === 'done' && status.downloadPath && (
              <p>
                <a className="button primary" href={status.downloadPath} download title={status.outPath} data-testid="export-download">
                  Download the {status.format.toUpperCase()} file
                </a>
              </p>
            )}
          </div>
        )}
        <h3 className="export-list-title">Exports of this archive</h3>
        <ExportList jobId={archive.jobId} />
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
          {status && !running && (
            <button
              onClick={() => {
                setExportId(null);
                setOutPath('');
              }}
              data-testid="export-again"
            >
              Export another…
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
