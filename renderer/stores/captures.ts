import { create } from 'zustand';
import type { CaptureSummary, ChangeReport } from '../../shared/captures.js';
import { commandValue } from './command.js';

interface CapturesState {
  /** Each archive's captures, oldest first, once loaded. */
  byJob: Record<string, CaptureSummary[]>;
  load(jobId: string): Promise<void>;
  /** One page of a capture's change report: every count, each URL list from `offset`, at most `limit` long. */
  changes(jobId: string, capture: number, offset: number, limit: number): Promise<ChangeReport | null>;
}

export const useCaptures = create<CapturesState>()((set) => ({
  byJob: {},
  load: async (jobId) => {
    const list = await commandValue('archives.captures', { id: jobId });
    if (list) set((s) => ({ byJob: { ...s.byJob, [jobId]: list } }));
  },
  changes: (jobId, capture, offset, limit) => commandValue('archives.changes', { id: jobId, capture, offset, limit }),
}));
