import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}

/** A modal yes/no question; Escape cancels. */
export function Confirm({ title, children, confirmLabel, onConfirm, onCancel, testId = 'confirm' }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="modal-backdrop" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div className="modal" role="alertdialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <h2>{title}</h2>
        {children}
        <div className="modal-actions">
          <button ref={cancelRef} onClick={onCancel} data-testid={`${testId}-cancel`}>
            Cancel
          </button>
          <button className="danger" onClick={onConfirm} data-testid={`${testId}-ok`}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
