import { create } from 'zustand';
import type { ExportStatus } from '../../shared/contract.js';
import type { ExportFormat } from '../../shared/metadata.js';
import { commandValue } from './command.js';

export interface ExportRequest {
  jobId: string;
  format: ExportFormat;
  outPath?: string;
  includeMirror: boolean;
}

interface ExportsState {
  byId: Record<string, ExportStatus>;
  start(request: ExportRequest): Promise<ExportStatus | null>;
  cancel(exportId: string): Promise<void>;
  apply(status: ExportStatus): void;
}

export const useExports = create<ExportsState>()((set, get) => ({
  byId: {},
  start: async ({ jobId, format, outPath, includeMirror }) => {
    const status = await commandValue('archives.export', { id: jobId, format, includeMirror, ...(outPath ? { outPath } : {}) });
    if (status) get().apply(status);
    return status;
  },
  cancel: async (exportId) => {
    const status = await commandValue('exports.cancel', { exportId });
    if (status) get().apply(status);
  },
  apply: (status) => set((s) => ({ byId: { ...s.byId, [status.exportId]: status } })),
}));

export const selectExport =
  (exportId: string | null) =>
  (s: Pick<ExportsState, 'byId'>): ExportStatus | undefined =>
    exportId ? s.byId[exportId] : undefined;
