import { create } from 'zustand';
import type { ClusterControlInput, ClusterStatus, ClusterView } from '../../shared/cluster.js';
import { api } from '../api/index.js';
import { commandValue } from './command.js';
import { useJobs } from './jobs.js';

interface ClustersState {
  /** Attached cluster harvests, by attachment id, in the order attached. */
  byId: Record<string, ClusterView>;
  /** The one shown in the jobs screen's detail pane (instead of a job), or null. */
  selectedId: string | null;
  load(): Promise<void>;
  /** Attaches and selects it; answers the host's message when it can't (shown beside the URL field). */
  attach(url: string): Promise<string | null>;
  upsert(view: ClusterView): void;
  removeLocal(id: string): void;
  select(id: string | null): void;
  control(id: string, control: ClusterControlInput): Promise<boolean>;
  detach(id: string): Promise<void>;
}

export const useClusters = create<ClustersState>()((set, get) => ({
  byId: {},
  selectedId: null,
  load: async () => {
    // Quietly: a host without attachments (or an older one) simply lists none.
    const r = await api()['clusters.list']({});
    if (r.ok) set({ byId: Object.fromEntries(r.value.map((v) => [v.id, v])) });
  },
  attach: async (url) => {
    const r = await api()['clusters.attach']({ url });
    if (!r.ok) return r.error.message;
    get().upsert(r.value);
    get().select(r.value.id);
    return null;
  },
  upsert: (view) => set((s) => ({ byId: { ...s.byId, [view.id]: view } })),
  removeLocal: (id) =>
    set((s) => {
      const { [id]: _gone, ...byId } = s.byId;
      return { byId, selectedId: s.selectedId === id ? null : s.selectedId };
    }),
  select: (id) => {
    if (id !== null) useJobs.getState().select(null);
    set({ selectedId: id });
  },
  control: async (id, control) => {
    const view = await commandValue('clusters.control', { id, control });
    if (view !== null) get().upsert(view);
    return view !== null;
  },
  detach: async (id) => {
    if ((await commandValue('clusters.detach', { id })) !== null) get().removeLocal(id);
  },
}));

// Choosing a job (click, keyboard) shows it instead of the cluster harvest.
useJobs.subscribe((s, prev) => {
  if (s.selectedId !== prev.selectedId && s.selectedId !== null && useClusters.getState().selectedId !== null) useClusters.setState({ selectedId: null });
});

export type ClusterPhase = 'running' | 'pausing' | 'paused' | 'finished' | 'unreachable' | 'unknown';

/** One word for where the harvest is: paused only once no batch is in flight any more. */
export function clusterPhase(v: ClusterView): ClusterPhase {
  if (v.error !== null) return 'unreachable';
  const s = v.status;
  if (s === null) return 'unknown';
  if (s.pending === 0) return 'finished';
  if (s.paused) return (s.counts.leased ?? 0) > 0 ? 'pausing' : 'paused';
  return 'running';
}

/** URLs with an outcome from a fetch, skipped ones apart (as a local job's progress counts them). */
export function fetchedOf(s: ClusterStatus): number {
  const c = s.counts;
  return (c.archived ?? 0) + (c.redirect ?? 0) + (c['http-error'] ?? 0) + (c.failed ?? 0);
}

/** URLs per second across the live workers, over the status's rate window. */
export function clusterRate(s: ClusterStatus): number {
  return s.workers.filter((w) => w.state === 'live').reduce((n, w) => n + w.rate, 0);
}
