import { useEffect, useState } from 'react';
import type { ArchiveSummary, PageRow } from '../../../shared/appViews.js';
import { plural } from '../../lib/format.js';
import { useApp } from '../../stores/app.js';
import { commandValue } from '../../stores/command.js';
import { useNav } from '../../stores/nav.js';
import { Thumbnail } from '../Viewer/Thumbnail.js';

const GRID_PAGE = 60;

/** An archive's pages as a grid of thumbnails with title and URL; a card opens its page in the viewer. */
export function PageGrid({ archive, onClose }: { archive: ArchiveSummary; onClose(): void }) {
  const viewerBase = useApp((s) => s.info?.viewerBase ?? null);
  const [rows, setRows] = useState<PageRow[]>([]);
  const [total, setTotal] = useState<number | null>(null);

  const load = async (offset: number): Promise<void> => {
    const page = await commandValue('archives.pages', { id: archive.jobId, offset, limit: GRID_PAGE });
    if (!page) return;
    setTotal(page.total);
    setRows((prev) => (offset === 0 ? page.rows : [...prev, ...page.rows]));
  };
  useEffect(() => {
    void load(0);
  }, [archive.jobId]);

  return (
    <section className="page-grid-panel" aria-label={`Pages of ${archive.name}`} data-testid="page-grid">
      <div className="page-grid-head">
        <h2>Pages of {archive.name}</h2>
        <span className="muted small" data-testid="page-grid-total">
          {total === null ? '…' : plural(total, 'page')}
        </span>
        <span className="spacer" />
        <button onClick={onClose} data-testid="page-grid-close">
          Close
        </button>
      </div>
      <ul className="page-grid">
        {rows.map((p) => (
          <li key={p.localPath}>
            <button className="page-card" onClick={() => useNav.getState().openViewer(archive.jobId, p.localPath)} title={p.url} data-testid="page-card">
              {viewerBase && <Thumbnail viewerBase={viewerBase} jobId={archive.jobId} page={p} large />}
              <span className="page-title">{p.title || p.url}</span>
              <span className="page-url muted small">{p.url}</span>
            </button>
          </li>
        ))}
      </ul>
      {total !== null && rows.length < total && (
        <button onClick={() => void load(rows.length)} data-testid="page-grid-more">
          More…
        </button>
      )}
    </section>
  );
}
