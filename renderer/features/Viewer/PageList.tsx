import { useEffect, useState } from 'react';
import type { PageRow } from '../../../shared/appViews.js';
import { plural } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';
import { Thumbnail } from './Thumbnail.js';

const PAGE_LIMIT = 200;
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The archive's pages, searchable by URL and title; picking one opens it in the viewer. Pages gone
 * from the site in the latest capture stay, marked removed, like a library's withdrawn items. For an
 * archive with thumbnails (`thumbnails`: the viewer base they are served from), each page shows its
 * own, or a neutral placeholder.
 */
export function PageList({
  jobId,
  current,
  onOpen,
  thumbnails = null,
}: {
  jobId: string;
  current: string | null;
  onOpen(localPath: string): void;
  thumbnails?: string | null;
}) {
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<PageRow[]>([]);
  const [total, setTotal] = useState<number | null>(null);

  const load = async (offset: number, query: string): Promise<void> => {
    const page = await commandValue('archives.pages', { id: jobId, offset, limit: PAGE_LIMIT, ...(query ? { search: query } : {}) });
    if (!page) return;
    setTotal(page.total);
    setRows((prev) => (offset === 0 ? page.rows : [...prev, ...page.rows]));
  };

  useEffect(() => {
    const t = setTimeout(() => void load(0, search.trim()), search ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(t);
  }, [jobId, search]);

  return (
    <section className="page-list" aria-label="Pages">
      <input
        type="search"
        placeholder="Search pages by URL or title  ( / )"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label="Search pages"
        data-shortcut="search"
        data-testid="page-search"
      />
      <div className="muted small" data-testid="page-total">
        {total == null ? '…' : plural(total, 'page')}
      </div>
      {total === 0 ? (
        <p className="empty-state">{search ? 'No page matches.' : 'No pages in this archive yet.'}</p>
      ) : (
        <ul>
          {rows.map((p) => (
            <li key={p.localPath}>
              <button
                className={`page-item${p.localPath === current ? ' current' : ''}${thumbnails ? ' with-thumb' : ''}`}
                onClick={() => onOpen(p.localPath)}
                title={p.url}
                data-testid="page-item"
              >
                {thumbnails && <Thumbnail viewerBase={thumbnails} jobId={jobId} page={p} />}
                <span className="page-text">
                  <span className="page-title">{p.title || p.url}</span>
                  <span className="page-url muted">
                    {p.removed && (
                      <>
                        <span className="mark mark-removed" title="Gone from the site in the latest capture; the copy stays" data-testid="page-removed">
                          removed
                        </span>{' '}
                      </>
                    )}
                    {p.url}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {total != null && rows.length < total && (
        <button onClick={() => void load(rows.length, search.trim())} data-testid="page-more">
          More…
        </button>
      )}
    </section>
  );
}
