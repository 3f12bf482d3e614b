import { useEffect, useRef, type RefObject } from 'react';

/** What Tab can land on inside a dialog. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

/** Open dialogs, innermost last: only that one answers Tab and Escape (a confirmation over the export dialog, say). */
const open: symbol[] = [];

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden], [inert]'));
}

/**
 * Keyboard handling of a dialog (WCAG 2.1.2, 2.4.3): on opening it takes the focus (its first
 * control, or the one marked `data-autofocus`, unless focus is already inside), Tab and Shift+Tab
 * cycle within it when `modal`, Escape calls `onClose`, and on closing the focus goes back to
 * whatever had it before, so a keyboard user carries on where they were.
 */
export function useDialog<T extends HTMLElement>(onClose: () => void, { modal = true }: { modal?: boolean } = {}): RefObject<T | null> {
  const ref = useRef<T>(null);
  // The latest onClose, so the listener installed once sees the current state it closes over.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const id = Symbol('dialog');
    open.push(id);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = ref.current;
    if (root && !root.contains(document.activeElement)) {
      const first = root.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(root)[0] ?? root;
      first.focus();
    }
    const onKey = (e: KeyboardEvent): void => {
      if (open[open.length - 1] !== id || !ref.current) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        close.current();
        return;
      }
      if (e.key !== 'Tab' || !modal) return;
      const items = focusables(ref.current);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = ref.current.contains(document.activeElement);
      if (e.shiftKey && (!inside || document.activeElement === first)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      open.splice(open.indexOf(id), 1);
      if (opener?.isConnected) opener.focus();
    };
  }, [modal]);

  return ref;
}
