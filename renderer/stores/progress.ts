import { create } from 'zustand';
import { RATE_HISTORY_POINTS, type JobProgressHistory, type RatePoint } from '../../shared/appViews.js';
import type { ProgressEvent } from '../../shared/crawl.js';

export type { RatePoint };

export interface JobProgress {
  latest: ProgressEvent;
  /** The last HISTORY_POINTS rates, oldest first, for the sparkline. */
  history: RatePoint[];
}

export const HISTORY_POINTS = RATE_HISTORY_POINTS;

interface ProgressState {
  byJob: Record<string, JobProgress>;
  apply(id: string, progress: ProgressEvent): void;
  /** Takes the host's history of a job (after a reload), unless live events already arrived. */
  seed(id: string, from: JobProgressHistory): void;
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
  seed: (id, from) =>
    set((s) => {
      if (!from.latest) return s;
      const live = s.byJob[id];
      // Events that arrived while the history was on its way are newer: keep them after it.
      const history = [...from.history, ...(live?.history ?? [])].slice(-HISTORY_POINTS);
      return { byJob: { ...s.byJob, [id]: { latest: live?.latest ?? from.latest, history } } };
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
