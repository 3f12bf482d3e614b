import { create } from 'zustand';
import type { ProgressEvent } from '../../shared/crawl.js';

export interface RatePoint {
  urlsPerSec: number;
  kbPerSec: number;
}

export interface JobProgress {
  latest: ProgressEvent;
  /** The last HISTORY_POINTS rates, oldest first, for the sparkline. */
  history: RatePoint[];
}

export const HISTORY_POINTS = 60;

interface ProgressState {
  byJob: Record<string, JobProgress>;
  apply(id: string, progress: ProgressEvent): void;
  forget(id: string): void;
}

export const useProgress = create<ProgressState>()((set) => ({
  byJob: {},
  apply: (id, progress) =>
    set((s) => {
      const prev = s.byJob[id]?.history ?? [];
      const history = [...prev, { urlsPerSec: progress.urlsPerSec, kbPerSec: progress.kbPerSec }].slice(-HISTORY_POINTS);
      return { byJob: { ...s.byJob, [id]: { latest: progress, history } } };
    }),
  forget: (id) =>
    set((s) => {
      const { [id]: _gone, ...byJob } = s.byJob;
      return { byJob };
    }),
}));

export const selectProgress =
  (id: string) =>
  (s: Pick<ProgressState, 'byJob'>): JobProgress | undefined =>
    s.byJob[id];
