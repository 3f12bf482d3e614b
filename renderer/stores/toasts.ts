import { create } from 'zustand';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  message: string;
}

interface ToastsState {
  toasts: Toast[];
  push(kind: Toast['kind'], message: string): void;
  dismiss(id: number): void;
}

const MAX_TOASTS = 5;
let nextId = 1;

export const useToasts = create<ToastsState>()((set) => ({
  toasts: [],
  push: (kind, message) => set((s) => ({ toasts: [...s.toasts, { id: nextId++, kind, message }].slice(-MAX_TOASTS) })),
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));
