import type { ReactNode } from 'react';
import { useNav } from '../../stores/nav.js';

/** A row of the jobs column (a job, or an attached cluster harvest): selected on click, once unsaved edits are settled. */
export function ListRow({ selected, onSelect, testId, jobId, children }: { selected: boolean; onSelect: () => void; testId: string; jobId?: string; children: ReactNode }) {
  return (
    <li
      role="option"
      aria-selected={selected}
      className={`job-row${selected ? ' selected' : ''}`}
      onClick={() => useNav.getState().guard(onSelect)}
      data-testid={testId}
      data-job-id={jobId}
    >
      {children}
    </li>
  );
}
