import { useEffect } from 'react';
import { useToasts, type Toast } from '../../stores/toasts.js';

const TOAST_MS = 8000;

/** Errors and notices from commands, dismissed by click or after a while. */
export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = setTimeout(() => useToasts.getState().dismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id]);
  return (
    <div className={`toast toast-${toast.kind}`} onClick={() => useToasts.getState().dismiss(toast.id)} data-testid="toast">
      {toast.message}
    </div>
  );
}
