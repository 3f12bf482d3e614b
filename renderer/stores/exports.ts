import { create } from 'zustand';
import type { ExportRecord, ExportStatus } from '../../shared/appViews.js';
import type { ExportFormat } from '../../shared/metadata.js';
import { commandValue } from './command.js';

export interface ExportRequest {
  jobId: string;
  format: ExportFormat;
  outPath?: string;
  includeMirror: boolean;
  /** One capture only (not for ZIP); every capture when absent. */
  capture?: number;
}

interface ExportsState {
  byId: Record<string, ExportStatus>;
  /** Finished exports per archive (job id), newest first, once loaded. */
  records: Record<string, ExportRecord[]>;
  /** Exports being verified. */
  verifying: Record<string, boolean>;
  start(request: ExportRequest): Promise<ExportStatus | null>;
  cancel(exportId: string): Promise<void>;
  apply(status: ExportStatus): void;
  loadRecords(jobId: string): Promise<void>;
  verify(exportId: string, jobId: string): Promise<void>;
}

export const useExports = create<ExportsState>()((set, get) => ({
  byId: {},
  start: async ({ jobId, format, outPath, includeMirror, capture }) => {
    const status = await commandValue('archives.export', {
      id: jobId,
      format,
      includeMirror,
      ...(outPath ? { outPath } : {}),
      ...(capture !== undefined && { capture }),
    });
    if (status) get().apply(status);
    return status;
  },
  cancel: async (exportId) => {
    const status = await commandValue('exports.cancel', { exportId });
    if (status) get().apply(status);
  },
  apply: (status) => {
    set((s) => ({ byId: { ...s.byId, [status.exportId]: status } }));
    if (status.state === 'done') void get().loadRecords(status.jobId);
  },
  records: {},
  verifying: {},
  loadRecords: async (jobId) => {
    const list = await commandValue('exports.list', { id: jobId });
    if (list) set((s) => ({ records: { ...s.records, [jobId]: list } }));
  },
  verify: async (exportId, jobId) => {
    set((s) => ({ verifying: { ...s.verifying, [exportId]: true } }));
    const r = await commandValue('exports.verify', { exportId });
    set((s) => {
      const { [exportId]: _done, ...verifying } = s.verifying;
      const list = s.records[jobId] ?? [];
      return { verifying, records: r ? { ...s.records, [jobId]: list.map((e) => (e.exportId === exportId ? r : e)) } : s.records };
    });
  },
}));

export const selectExport =
  (exportId: string | null) =>
  (s: Pick<ExportsState, 'byId'>): ExportStatus | undefined =>
    exportId ? s.byId[exportId] : undefined;
