import { create } from 'zustand';
import type { ImportStatus } from '../../shared/appViews.js';
import { useArchives } from './archives.js';
import { commandValue } from './command.js';
import { useToasts } from './toasts.js';

export interface ImportRequest {
  paths: string[];
  outDir?: string;
  name?: string;
}

interface ImportsState {
  byId: Record<string, ImportStatus>;
  /** Starts an import; null when the host refused it (the reason is shown as a toast). */
  start(request: ImportRequest): Promise<ImportStatus | null>;
  apply(status: ImportStatus): void;
  /** Pauses a running import at its next record. */
  pause(importId: string): Promise<void>;
  /** Goes on with a paused import. */
  resume(importId: string): Promise<void>;
}

export const useImports = create<ImportsState>()((set, get) => ({
  byId: {},
  start: async ({ paths, outDir, name }) => {
    const status = await commandValue('archives.import', { paths, ...(outDir ? { outDir } : {}), ...(name ? { name } : {}) });
    if (status) get().apply(status);
    return status;
  },
  pause: async (importId) => {
    const status = await commandValue('archives.importPause', { importId });
    if (status) get().apply(status);
  },
  resume: async (importId) => {
    const status = await commandValue('archives.importResume', { importId });
    if (status) get().apply(status);
  },
  apply: (status) => {
    const before = get().byId[status.importId];
    // An event can overtake the command's reply: an ended import stays ended, a paused one paused
    // (until resumed, when 'running' follows 'paused').
    if (before && (before.state === 'done' || before.state === 'failed') && status.state !== before.state) return;
    if (before?.state === 'paused' && status.state === 'pausing') return;
    set((s) => ({ byId: { ...s.byId, [status.importId]: status } }));
    // The imported archive joins the library.
    if (status.state === 'done' && before?.state !== 'done') {
      void useArchives.getState().load();
      useToasts.getState().push('info', `Imported into ${status.outDir}; the archive is in the library`);
    }
    if (status.state === 'failed' && before?.state !== 'failed') useToasts.getState().push('error', `Import failed: ${status.error ?? 'unknown error'}`);
  },
}));

export const selectImport =
  (importId: string | null) =>
  (s: Pick<ImportsState, 'byId'>): ImportStatus | undefined =>
    importId ? s.byId[importId] : undefined;
