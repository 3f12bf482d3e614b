import { create } from 'zustand';
import type { SkipReason, UrlState } from '../../shared/crawl.js';

export type Screen = 'jobs' | 'library' | 'viewer';

/** What the job form is doing, if open. */
export type JobFormMode = { kind: 'create' } | { kind: 'edit'; id: string };

interface NavState {
  screen: Screen;
  /** The archive open in the viewer and the mirror path to show first. */
  viewer: { jobId: string; localPath: string } | null;
  jobForm: JobFormMode | null;
  helpOpen: boolean;
  /** A filter the progress screen's URL log should apply (a drill-down from a count). */
  drillDown: { jobId: string; state?: UrlState; skipReason?: SkipReason; serial: number } | null;
  go(screen: Screen): void;
  openViewer(jobId: string, localPath?: string): void;
  openJobForm(mode: JobFormMode | null): void;
  setHelp(open: boolean): void;
  drill(jobId: string, filter: { state?: UrlState; skipReason?: SkipReason }): void;
}

let drillSerial = 0;

export const useNav = create<NavState>()((set) => ({
  screen: 'jobs',
  viewer: null,
  jobForm: null,
  helpOpen: false,
  drillDown: null,
  go: (screen) => set({ screen }),
  openViewer: (jobId, localPath = 'index.html') => set({ screen: 'viewer', viewer: { jobId, localPath } }),
  openJobForm: (jobForm) => set({ jobForm, screen: 'jobs' }),
  setHelp: (helpOpen) => set({ helpOpen }),
  drill: (jobId, filter) => set({ drillDown: { jobId, ...filter, serial: ++drillSerial } }),
}));
