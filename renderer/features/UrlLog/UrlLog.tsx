import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { SKIP_REASONS, URL_STATES, type SkipReason, type UrlRecord, type UrlState } from '../../../shared/crawl.js';
import { urlLogDownloadPath } from '../../../shared/webRoutes.js';
import { formatBytes, plural } from '../../lib/format.js';
import { SKIP_LABELS, STATE_LABELS } from '../../lib/vocabulary.js';
import { UrlDetailPanel } from '../UrlDetail/index.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { useNav } from '../../stores/nav.js';
import { PAGE_SIZE, defaultFilter, rowAt, useUrls, type UrlFilter } from '../../stores/urls.js';

export const ROW_HEIGHT = 28;
const SEARCH_DEBOUNCE_MS = 250;

interface Props {
  id: string;
  /** Height of the scrolling viewport; tests pass one since happy-dom does no layout. */
  height?: number;
}

/**
 * A job's URL log: a virtual list over the host's paged query. Only the rows on screen are
 * rendered and only their pages fetched, so it stays smooth at a million rows. To assistive
 * technology it is a grid with the full row count (aria-rowcount, aria-rowindex), so a screen
 * reader says "row 5 of 1,234" although only a few dozen rows exist; the keyboard moves a single
 * Tab stop along the rows with the arrows, Page Up/Down, Home and End, and Enter opens a row.
 */
export function UrlLog({ id, height }: Props) {
  const log = useUrls((s) => s.logs[id]);
  const isWeb = useApp(selectIsWebHost);
  const drillDown = useNav((s) => (s.drillDown?.jobId === id ? s.drillDown : null));
  const filter = log?.filter ?? defaultFilter;
  const [search, setSearch] = useState(filter.search);
  const [detailUrl, setDetailUrl] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  /** The row that is the log's Tab stop. */
  const [active, setActive] = useState(0);
  /** Set by a key press, so the effect below moves the focus once the row is rendered. */
  const focusActive = useRef(false);

  const applyFilter = (next: UrlFilter): void => {
    useUrls.getState().setFilter(id, next);
    scrollRef.current?.scrollTo({ top: 0 });
  };

  useEffect(() => {
    if (!useUrls.getState().logs[id]) useUrls.getState().setFilter(id, defaultFilter);
  }, [id]);

  useEffect(() => {
    if (!drillDown) return;
    setSearch('');
    applyFilter({ search: '', ...(drillDown.state ? { state: drillDown.state } : {}), ...(drillDown.skipReason ? { skipReason: drillDown.skipReason } : {}) });
    // Only a new drill-down (its serial) re-filters.
  }, [drillDown?.serial]);

  useEffect(() => {
    if (search === filter.search) return;
    const t = setTimeout(() => applyFilter({ ...filter, search }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  const total = log?.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 800, height: height ?? 420 },
  });
  const items = virtualizer.getVirtualItems();
  const rowsOnScreen = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? height ?? 420) / ROW_HEIGHT) - 1);
  const onRowKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const to = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + rowsOnScreen, PageUp: active - rowsOnScreen, Home: 0, End: total - 1 }[e.key];
    if (to === undefined || total === 0) return;
    e.preventDefault();
    const next = Math.min(total - 1, Math.max(0, to));
    focusActive.current = true;
    setActive(next);
    virtualizer.scrollToIndex(next);
  };
  useEffect(() => {
    if (!focusActive.current) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (row) {
      row.focus();
      focusActive.current = false;
    }
  });
  // A new filter starts the list again: the Tab stop returns to its first row.
  useEffect(() => setActive(0), [log?.filterSerial]);
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    const pages = [];
    for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p++) pages.push(p);
    void useUrls.getState().ensurePages(id, pages);
  }, [id, first, last, log?.gen, log?.filterSerial]);

  return (
    <section className="url-log" aria-label="URL log" data-testid="url-log">
      <div className="url-log-tools">
        <select
          value={filter.state ?? ''}
          onChange={(e) => applyFilter({ ...filter, state: (e.target.value || undefined) as UrlState | undefined, skipReason: undefined })}
          aria-label="Filter by state"
          data-testid="url-log-state"
        >
          <option value="">All states</option>
          {URL_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
        {filter.state === 'skipped' && (
          <select
            value={filter.skipReason ?? ''}
            onChange={(e) => applyFilter({ ...filter, skipReason: (e.target.value || undefined) as SkipReason | undefined })}
            aria-label="Filter by skip reason"
            data-testid="url-log-reason"
          >
            <option value="">Any reason</option>
            {SKIP_REASONS.map((r) => (
              <option key={r} value={r}>
                {SKIP_LABELS[r]}
              </option>
            ))}
          </select>
        )}
        <input
          type="search"
          placeholder="Search URLs  ( / )"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label="Search URLs"
          data-shortcut="search"
          data-testid="url-log-search"
        />
        <span className="muted" data-testid="url-log-total">
          {log?.total == null ? '…' : plural(total, 'URL')}
        </span>
        {/* The desktop app's log is `harvest list <archive-dir>`; a browser can only download it. */}
        {isWeb && (
          <a className="button" href={urlLogDownloadPath(id)} download title="Every URL of the job, as 'harvest list' prints it" data-testid="url-log-download">
            Download log
          </a>
        )}
      </div>
      <div className="url-log-grid" role="grid" aria-label="URLs" aria-rowcount={total + 1} aria-colcount={4} data-testid="url-log-grid">
        <div className="url-row url-log-head" role="row" aria-rowindex={1} data-testid="url-log-head">
          <span className="url-state" role="columnheader">Outcome</span>
          <span className="url-status" role="columnheader" title="HTTP status">HTTP</span>
          <span className="url-text" role="columnheader">URL</span>
          <span className="url-detail" role="columnheader">Size or reason</span>
        </div>
        <div className="url-log-scroll" ref={scrollRef} style={height !== undefined ? { height, flex: 'none' } : undefined} data-testid="url-log-scroll">
          {log?.total === 0 ? (
            <div role="row">
              <p className="empty-state" role="gridcell">
                No URLs match. {filter.state || filter.search ? 'Try another filter.' : 'They appear here as the crawl discovers them.'}
              </p>
            </div>
          ) : (
            <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }} onKeyDown={onRowKey}>
              {items.map((item) => (
                <Row
                  key={item.key}
                  index={item.index}
                  start={item.start}
                  row={rowAt(log, item.index)}
                  onOpen={setDetailUrl}
                  selected={rowAt(log, item.index)?.url === detailUrl}
                  tabStop={item.index === Math.min(active, total - 1)}
                />
              ))}
            </div>
          )}
        </div>
      </div>
      {detailUrl && <UrlDetailPanel jobId={id} url={detailUrl} onClose={() => setDetailUrl(null)} onOpenUrl={setDetailUrl} />}
    </section>
  );
}

function Row({ index, start, row, onOpen, selected, tabStop }: { index: number; start: number; row: UrlRecord | undefined; onOpen(url: string): void; selected: boolean; tabStop: boolean }) {
  return (
    <div
      className={`url-row state-${row?.state ?? 'loading'}${selected ? ' selected' : ''}${row ? ' openable' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={row ? () => onOpen(row.url) : undefined}
      onKeyDown={row ? (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onOpen(row.url)) : undefined}
      tabIndex={tabStop ? 0 : -1}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="url-row"
      data-index={index}
    >
      {row ? (
        <>
          <span className="url-state" role="gridcell">
            {STATE_LABELS[row.state]}
          </span>
          <span className="url-status" role="gridcell">
            {row.httpStatus ?? ''}
          </span>
          <span className="url-text" role="gridcell" title={row.url}>
            {row.url}
          </span>
          <span className="url-detail" role="gridcell">
            {row.skipReason ? SKIP_LABELS[row.skipReason] : (row.reason ?? (row.bytes != null ? formatBytes(row.bytes) : ''))}
          </span>
        </>
      ) : (
        <span className="muted" role="gridcell" aria-colspan={4}>
          Loading…
        </span>
      )}
    </div>
  );
}
