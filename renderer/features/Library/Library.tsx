import { Fragment, useState } from 'react';
import type { ArchiveSummary, DeleteReport } from '../../../shared/appViews.js';
import { formatBytes, formatCount, formatDate } from '../../lib/format.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { useArchives } from '../../stores/archives.js';
import { useJobs } from '../../stores/jobs.js';
import { useNav } from '../../stores/nav.js';
import { Captures } from '../Captures/index.js';
import { ExportDialog } from '../ExportDialog/index.js';
import { MetadataEditor } from '../MetadataEditor/index.js';
import { DeleteArchiveDialog } from './DeleteArchiveDialog.js';
import { DeleteReportNotice } from './DeleteReportNotice.js';
import { ImportDialog } from './ImportDialog.js';
import { OpenArchive } from './OpenArchive.js';
import { PageGrid } from './PageGrid.js';
import { TableHead } from '../Table/TableHead.js';

type Dialog = { kind: 'delete' | 'export' | 'metadata'; archive: ArchiveSummary } | null;

/** Every archive: what it holds, and what can be done with it. */
export function Library() {
  const list = useArchives((s) => s.list);
  const loaded = useArchives((s) => s.loaded);
  const isWeb = useApp(selectIsWebHost);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [shownPath, setShownPath] = useState<{ jobId: string; path: string } | null>(null);
  // The same counts the jobs screen shows, from the same job summaries.
  const jobs = useJobs((s) => s.byId);
  const archivedOf = (jobId: string): number => jobs[jobId]?.counts?.archived ?? 0;
  const [deleted, setDeleted] = useState<{ name: string; report: DeleteReport } | null>(null);
  const [capturesOf, setCapturesOf] = useState<string | null>(null);
  const [grid, setGrid] = useState<ArchiveSummary | null>(null);
  const [importing, setImporting] = useState(false);
  const importButton = (
    <button onClick={() => setImporting(true)} title="WARC or WACZ files made by other tools, as a new archive" data-testid="library-import">
      Import…
    </button>
  );
  const importDialog = importing && <ImportDialog onClose={() => setImporting(false)} />;

  const remove = async (archive: ArchiveSummary, deleteArchive: boolean): Promise<void> => {
    setDialog(null);
    const report = await useArchives.getState().remove(archive.jobId, deleteArchive);
    if (report) setDeleted({ name: archive.name, report });
  };
  const notice = deleted && <DeleteReportNotice name={deleted.name} report={deleted.report} onDismiss={() => setDeleted(null)} />;

  const reveal = async (jobId: string): Promise<void> => {
    const path = await useArchives.getState().reveal(jobId);
    if (isWeb && path) setShownPath({ jobId, path });
  };

  // Beside either view, so the dialog (and its running import) stays when the first archive arrives.
  return (
    <>
      {loaded && list.length === 0 ? emptyLibrary() : library()}
      {importDialog}
    </>
  );

  function emptyLibrary() {
    return (
      <div className="empty-state" data-testid="library-empty">
        {notice}
        <p>No archives yet.</p>
        <p>Each job writes an archive as it runs. Create and start a job on the Jobs screen (g j); its archive appears here.</p>
        <p>An archive folder already on disk can be added to the library, and other tools’ WARC or WACZ files imported:</p>
        <div className="row">
          <OpenArchive onOpened={() => setDeleted(null)} />
          {importButton}
        </div>
      </div>
    );
  }

  function library() {
    return (
      <div className="library">
        <div className="library-toolbar">
          <OpenArchive onOpened={() => setDeleted(null)} />
          {importButton}
        </div>
        {notice}
        {grid && <PageGrid archive={grid} onClose={() => setGrid(null)} />}
        <table className="archive-table">
          <caption className="sr-only">Archives</caption>
          <TableHead
            columns={[
              { label: 'Name and seed' },
              { label: 'Date' },
              { label: 'Pages', num: true, title: 'Archived HTML pages' },
              { label: 'Archived', num: true, title: 'Everything archived: pages, images, stylesheets, scripts and other files' },
              { label: 'Size', num: true, title: 'Size of the archive folder on disk' },
              { label: 'Status' },
              { label: 'Actions', hidden: true },
            ]}
          />
          <tbody>
            {list.map((a) => (
              <Fragment key={a.jobId}>
                <tr data-testid="archive-row" data-job-id={a.jobId}>
                  <td>
                    <div className="archive-name">{a.name}</div>
                    <div className="muted small">{a.seeds.join(' · ')}</div>
                    {shownPath?.jobId === a.jobId && (
                      <div className="small" data-testid="archive-path">
                        Folder: <code>{shownPath.path}</code>
                      </div>
                    )}
                  </td>
                  <td>{formatDate(a.finishedAt ?? a.createdAt)}</td>
                  <td className="num" data-testid="archive-pages">
                    {formatCount(a.pages)}
                  </td>
                  <td className="num" data-testid="archive-archived">
                    {formatCount(archivedOf(a.jobId))}
                  </td>
                  <td className="num">{formatBytes(a.bytesOnDisk)}</td>
                  <td>
                    <span className={`status status-${a.status}`}>{a.status}</span>
                    {a.capture != null && (
                      <div className="muted small" data-testid="archive-capture" title="The figures are of the archive's latest capture">
                        capture {a.capture}
                      </div>
                    )}
                  </td>
                  <td>
                    <div className="archive-actions">
                      <button className="primary" onClick={() => useNav.getState().openViewer(a.jobId)} disabled={a.pages === 0} data-testid="archive-open">
                        Open
                      </button>
                      {a.hasThumbnails && (
                        <button onClick={() => setGrid(a)} disabled={a.pages === 0} title="The archive's pages as thumbnails" data-testid="archive-grid">
                          Pages
                        </button>
                      )}
                      <button onClick={() => useNav.getState().openSearch(a.jobId)} disabled={a.pages === 0} title="Search the archive's text" data-testid="archive-search">
                        Search
                      </button>
                      <button onClick={() => useNav.getState().openReport(a.jobId)} title="The archive's QA report" data-testid="archive-report">
                        Report
                      </button>
                      <button
                        onClick={() => setCapturesOf(capturesOf === a.jobId ? null : a.jobId)}
                        aria-expanded={capturesOf === a.jobId}
                        disabled={a.status === 'new'}
                        data-testid="archive-captures"
                      >
                        Captures
                      </button>
                      <button onClick={() => void reveal(a.jobId)} data-testid="archive-reveal">
                        {isWeb ? 'Show folder' : 'Reveal in file manager'}
                      </button>
                      <button onClick={() => setDialog({ kind: 'metadata', archive: a })} data-testid="archive-metadata">
                        Metadata
                      </button>
                      <button onClick={() => setDialog({ kind: 'export', archive: a })} data-testid="archive-export">
                        Export…
                      </button>
                      <button className="danger" onClick={() => setDialog({ kind: 'delete', archive: a })} disabled={a.status === 'running' || a.status === 'pausing'} data-testid="archive-delete">
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
                {capturesOf === a.jobId && (
                  <tr className="captures-row">
                    <td colSpan={7}>
                      <Captures jobId={a.jobId} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
        {dialog?.kind === 'delete' && (
          <DeleteArchiveDialog archive={dialog.archive} onCancel={() => setDialog(null)} onConfirm={(deleteArchive) => void remove(dialog.archive, deleteArchive)} />
        )}
        {dialog?.kind === 'export' && <ExportDialog archive={dialog.archive} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'metadata' && <MetadataEditor archive={dialog.archive} onClose={() => setDialog(null)} />}
      </div>
    );
  }
}
