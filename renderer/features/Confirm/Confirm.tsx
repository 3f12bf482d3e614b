import type { ReactNode } from 'react';
import { useDialog } from '../../lib/dialog.js';

interface Props {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The label of the button that backs out; 'Cancel' unless that word would be ambiguous. */
  cancelLabel?: string;
  /** 'danger' (red) for destructive actions, 'primary' otherwise. */
  tone?: 'danger' | 'primary';
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}

/** A modal yes/no question; it starts on the button that backs out, Escape cancels, and the focus stays inside until it closes. */
export function Confirm({ title, children, confirmLabel, cancelLabel = 'Cancel', tone = 'danger', onConfirm, onCancel, testId = 'confirm' }: Props) {
  const dialog = useDialog<HTMLDivElement>(onCancel);
  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal" role="alertdialog" aria-modal="true" aria-labelledby={`${testId}-title`} tabIndex={-1} data-testid={testId}>
        <h2 id={`${testId}-title`}>{title}</h2>
        {children}
        <div className="modal-actions">
          <button data-autofocus onClick={onCancel} data-testid={`${testId}-cancel`}>
            {cancelLabel}
          </button>
          <button className={tone} onClick={onConfirm} data-testid={`${testId}-ok`}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
