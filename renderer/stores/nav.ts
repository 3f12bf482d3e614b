import { create } from 'zustand';
import type { SkipReason, UrlState } from '../../shared/crawl.js';
import type { HighlightTerm } from '../../shared/search.js';

export type Screen = 'jobs' | 'library' | 'viewer' | 'search' | 'report';

/** What the search screen searches: one archive (a job id) or every archive in the library. */
export const ALL_ARCHIVES = '*';

/**
 * What the job form is doing, if open. 'create' may start from another job's settings (`from`): a
 * new capture of a finished job, optionally with more seeds (a page added from the viewer).
 */
export type JobFormMode = { kind: 'create'; from?: string; addSeeds?: string[] } | { kind: 'edit'; id: string };

interface NavState {
  screen: Screen;
  /** The archive open in the viewer, the mirror path to show first, and a search's words to highlight in it. */
  viewer: { jobId: string; localPath: string; highlight?: HighlightTerm[]; serial: number } | null;
  /** The search screen's archive (a job id, or ALL_ARCHIVES), and the report screen's; null until one is chosen. */
  searchScope: string | null;
  reportJobId: string | null;
  openSearch(scope: string): void;
  openReport(jobId: string): void;
  jobForm: JobFormMode | null;
  helpOpen: boolean;
  /** A filter the progress screen's URL log should apply (a drill-down from a count). */
  drillDown: { jobId: string; state?: UrlState; skipReason?: SkipReason; serial: number } | null;
  go(screen: Screen): void;
  openViewer(jobId: string, localPath?: string, highlight?: HighlightTerm[]): void;
  openJobForm(mode: JobFormMode | null): void;
  setHelp(open: boolean): void;
  drill(jobId: string, filter: { state?: UrlState; skipReason?: SkipReason }): void;
  /** The job form holds edits that leaving would lose. */
  formDirty: boolean;
  setFormDirty(dirty: boolean): void;
  /** A navigation waiting for the archivist to confirm discarding the form's edits. */
  pendingLeave: (() => void) | null;
  /** Runs the action, or, with unsaved edits in the job form, asks first. */
  guard(action: () => void): void;
  confirmLeave(): void;
  stayHere(): void;
}

let drillSerial = 0;
/** Each opening of the viewer is a fresh visit (a search hit in the archive already open, say). */
let viewerSerial = 0;

export const useNav = create<NavState>()((set, get) => ({
  screen: 'jobs',
  viewer: null,
  searchScope: null,
  reportJobId: null,
  jobForm: null,
  helpOpen: false,
  drillDown: null,
  formDirty: false,
  pendingLeave: null,
  setFormDirty: (formDirty) => set({ formDirty }),
  guard: (action) => (get().formDirty && get().jobForm ? set({ pendingLeave: action }) : action()),
  confirmLeave: () => {
    const action = get().pendingLeave;
    set({ pendingLeave: null, formDirty: false });
    action?.();
  },
  stayHere: () => set({ pendingLeave: null }),
  // Leaving the jobs screen, or replacing the form, would drop its edits.
  go: (screen) => (screen === 'jobs' ? set({ screen }) : get().guard(() => set({ screen }))),
  openViewer: (jobId, localPath = 'index.html', highlight) =>
    get().guard(() => set({ screen: 'viewer', viewer: { jobId, localPath, serial: ++viewerSerial, ...(highlight && highlight.length > 0 && { highlight }) } })),
  openSearch: (searchScope) => get().guard(() => set({ screen: 'search', searchScope })),
  openReport: (reportJobId) => get().guard(() => set({ screen: 'report', reportJobId })),
  openJobForm: (jobForm) => get().guard(() => set({ jobForm, screen: 'jobs' })),
  setHelp: (helpOpen) => set({ helpOpen }),
  drill: (jobId, filter) => set({ drillDown: { jobId, ...filter, serial: ++drillSerial } }),
}));
