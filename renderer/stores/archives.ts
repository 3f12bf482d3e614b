import { create } from 'zustand';
import type { ArchiveSummary, DeleteReport, JobSummary } from '../../shared/appViews.js';
import type { DublinCore, MetadataSuggestion } from '../../shared/metadata.js';
import { api } from '../api/index.js';
import { command, commandValue } from './command.js';

interface ArchivesState {
  list: ArchiveSummary[];
  loaded: boolean;
  load(): Promise<void>;
  removeLocal(jobId: string): void;
  /** Deletes the job; with deleteArchive, also what Harvest made in its folder. Null after a failure (already reported). */
  remove(jobId: string, deleteArchive: boolean): Promise<DeleteReport | null>;
  /** Adds an archive folder on disk to the library. */
  open(archiveDir: string): Promise<JobSummary | null>;
  reveal(jobId: string): Promise<string | null>;
  openInBrowser(jobId: string): Promise<string | null>;
  getMetadata(jobId: string): Promise<DublinCore | null>;
  setMetadata(jobId: string, metadata: DublinCore): Promise<DublinCore | null>;
  /** A title and date from the crawl for an empty description; null if the host could not say. */
  suggestMetadata(jobId: string): Promise<MetadataSuggestion | null>;
}

export const useArchives = create<ArchivesState>()((set, get) => ({
  list: [],
  loaded: false,
  load: async () => {
    const list = await commandValue('archives.list', {});
    if (list) set({ list, loaded: true });
  },
  removeLocal: (jobId) => set((s) => ({ list: s.list.filter((a) => a.jobId !== jobId) })),
  remove: async (jobId, deleteArchive) => {
    const reply = await command('jobs.delete', { id: jobId, deleteArchive });
    if (!reply.ok) return null;
    get().removeLocal(jobId);
    return reply.value;
  },
  open: async (archiveDir) => {
    const job = await commandValue('archives.open', { archiveDir });
    if (job) await get().load();
    return job;
  },
  reveal: async (jobId) => (await commandValue('archives.reveal', { id: jobId }))?.path ?? null,
  openInBrowser: async (jobId) => (await commandValue('archives.openInBrowser', { id: jobId }))?.path ?? null,
  getMetadata: (jobId) => commandValue('archives.getMetadata', { id: jobId }),
  setMetadata: (jobId, metadata) => commandValue('archives.setMetadata', { id: jobId, metadata }),
  suggestMetadata: async (jobId) => {
    // Quietly: without a suggestion the editor simply starts empty.
    const reply = await api()['archives.suggestMetadata']({ id: jobId });
    return reply.ok ? reply.value : null;
  },
}));
