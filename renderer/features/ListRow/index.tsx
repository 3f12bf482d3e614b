import type { KeyboardEvent, ReactNode } from 'react';
import { useNav } from '../../stores/nav.js';

/**
 * The jobs column's list (jobs, or attached cluster harvests) as a listbox the keyboard can use
 * (WAI-ARIA listbox pattern): one Tab stop, the selected row, or the list itself while none is;
 * the arrows, Home and End move the selection, which opens that row as a click does.
 */
export function ListBox({ label, hasSelection, children }: { label: string; hasSelection: boolean; children: ReactNode }) {
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>): void => {
    const options = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="option"]')];
    if (options.length === 0) return;
    const at = options.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: at < 0 ? 0 : at - 1, Home: 0, End: options.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = options[Math.min(options.length - 1, Math.max(0, to))]!;
    next.focus();
    if (next !== options[at]) next.click();
  };
  return (
    <ul className="job-list" role="listbox" aria-label={label} tabIndex={hasSelection ? -1 : 0} onKeyDown={onKeyDown}>
      {children}
    </ul>
  );
}

/** A row of the jobs column (a job, or an attached cluster harvest): selected on click, once unsaved edits are settled. */
export function ListRow({ selected, onSelect, testId, jobId, children }: { selected: boolean; onSelect: () => void; testId: string; jobId?: string; children: ReactNode }) {
  return (
    <li
      role="option"
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      className={`job-row${selected ? ' selected' : ''}`}
      onClick={() => useNav.getState().guard(onSelect)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), useNav.getState().guard(onSelect))}
      data-testid={testId}
      data-job-id={jobId}
    >
      {children}
    </li>
  );
}
