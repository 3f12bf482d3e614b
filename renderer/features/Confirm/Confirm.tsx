import { useEffect, useRef, type ReactNode } from 'react';

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

/** A modal yes/no question; Escape cancels. */
export function Confirm({ title, children, confirmLabel, cancelLabel = 'Cancel', tone = 'danger', onConfirm, onCancel, testId = 'confirm' }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="modal-backdrop" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div className="modal" role="alertdialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <h2>{title}</h2>
        {children}
        <div className="modal-actions">
          <button ref={cancelRef} onClick={onCancel} data-testid={`${testId}-cancel`}>
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
