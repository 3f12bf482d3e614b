import { useEffect, useState, type KeyboardEvent } from 'react';
import type { CaptureSummary, ChangeReport as Report, OutcomeCounts } from '../../../shared/captures.js';
import { useDialog } from '../../lib/dialog.js';
import { formatCount } from '../../lib/format.js';
import { useCaptures } from '../../stores/captures.js';

/** URLs per page of a list. */
export const CHANGE_PAGE_SIZE = 50;

type ListKey = 'new' | 'restored' | 'changed' | 'markupOnly' | 'removed';
const LISTS: { key: ListKey; label: string; testId: string }[] = [
  { key: 'changed', label: 'Changed', testId: 'changed' },
  { key: 'new', label: 'New', testId: 'new' },
  { key: 'restored', label: 'Restored', testId: 'restored' },
  { key: 'markupOnly', label: 'Markup only', testId: 'markup-only' },
  { key: 'removed', label: 'Removed', testId: 'removed' },
];
const COUNTS: { key: keyof OutcomeCounts; label: string; hint: string }[] = [
  { key: 'new', label: 'New', hint: 'never in the archive before' },
  { key: 'restored', label: 'Restored', hint: 'back after a capture that found it removed' },
  { key: 'changed', label: 'Changed', hint: 'its visible text changed' },
  { key: 'markupOnly', label: 'Markup only', hint: 'its payload changed, its visible text did not' },
  { key: 'unchanged', label: 'Unchanged', hint: 'the same payload' },
  { key: 'notModified', label: 'Not modified', hint: 'the server answered 304' },
  { key: 'removed', label: 'Removed', hint: 'gone (404/410) or no longer reached; the earlier copy stays' },
  { key: 'httpErrors', label: 'HTTP errors', hint: 'the server answered with an error status (4xx or 5xx)' },
  { key: 'failed', label: 'Failed', hint: 'no usable answer this time' },
];

/**
 * A capture's change report: the count of every outcome (never capped) and the URL lists worth
 * reading, a page at a time.
 */
export function ChangeReport({ jobId, capture, onClose }: { jobId: string; capture: CaptureSummary; onClose(): void }) {
  const [list, setList] = useState<ListKey | null>(null);
  const [page, setPage] = useState(0);
  const [report, setReport] = useState<Report | null>(null);
  // The first list with something in it, from the capture's own counts.
  const shown: ListKey = list ?? LISTS.find((l) => capture.counts[l.key] > 0)?.key ?? 'changed';

  useEffect(() => {
    let current = true;
    void useCaptures
      .getState()
      .changes(jobId, capture.id, page * CHANGE_PAGE_SIZE, CHANGE_PAGE_SIZE)
      .then((r) => current && r && setReport(r));
    return () => {
      current = false;
    };
  }, [jobId, capture.id, page]);

  const total = report?.counts[shown] ?? capture.counts[shown];
  const pages = Math.max(1, Math.ceil(total / CHANGE_PAGE_SIZE));
  const first = total === 0 ? 0 : page * CHANGE_PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * CHANGE_PAGE_SIZE);
  const dialog = useDialog<HTMLDivElement>(onClose);
  const choose = (key: ListKey): void => {
    setList(key);
    setPage(0);
  };
  // A tab list is one stop for Tab; the arrows, Home and End move between its tabs (WAI-ARIA tabs pattern).
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const at = LISTS.findIndex((l) => l.key === shown);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: LISTS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = LISTS[(to + LISTS.length) % LISTS.length]!;
    choose(next.key);
    e.currentTarget.querySelector<HTMLElement>(`[data-testid="change-tab-${next.testId}"]`)?.focus();
  };
  const title = report?.previous ? `Capture #${capture.id}: what changed since #${report.previous}` : `Capture #${capture.id}: the first capture`;
  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal change-report" role="dialog" aria-modal="true" aria-labelledby="change-report-title" tabIndex={-1} data-testid="change-report">
        <h2 id="change-report-title">{title}</h2>
        <table className="summary-outcomes change-counts">
          <caption className="sr-only">Outcome of every URL</caption>
          <tbody>
            {COUNTS.map((c) => (
              <tr key={c.key} title={c.hint}>
                <th>{c.label}</th>
                <td className="num" data-testid={`change-count-${c.key}`}>
                  {formatCount((report ?? capture).counts[c.key])}
                </td>
                <td className="muted small">{c.hint}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="change-tabs" role="tablist" aria-label="URL lists" onKeyDown={onTabKey}>
          {LISTS.map((l) => (
            <button
              key={l.key}
              role="tab"
              id={`change-tab-${l.testId}`}
              aria-selected={l.key === shown}
              aria-controls="change-panel"
              tabIndex={l.key === shown ? 0 : -1}
              className={l.key === shown ? 'tab active' : 'tab'}
              onClick={() => choose(l.key)}
              data-testid={`change-tab-${l.testId}`}
            >
              {l.label} ({formatCount((report ?? capture).counts[l.key])})
            </button>
          ))}
        </div>
        <div id="change-panel" role="tabpanel" aria-labelledby={`change-tab-${LISTS.find((l) => l.key === shown)!.testId}`}>
          {total === 0 ? (
            <p className="muted" data-testid="change-empty">
              None.
            </p>
          ) : (
            // Focusable, so the list scrolls by keyboard too (WCAG 2.1.1).
            <ol className="change-urls" start={first} tabIndex={0} aria-label="URLs" data-testid="change-urls">
              {(report?.[shown] ?? []).map((url) => (
                <li key={url} data-testid="change-url">
                  {url}
                </li>
              ))}
            </ol>
          )}
        </div>
        <div className="modal-actions">
          <span className="muted small change-page" data-testid="change-page">
            {total === 0 ? '' : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)} · page ${page + 1} of ${pages}`}
          </span>
          <button onClick={() => setPage((p) => p - 1)} disabled={page === 0} data-testid="change-prev">
            Previous
          </button>
          <button onClick={() => setPage((p) => p + 1)} disabled={page + 1 >= pages} data-testid="change-next">
            Next
          </button>
          <button className="primary" onClick={onClose} data-testid="change-report-close">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
