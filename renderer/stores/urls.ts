import { create } from 'zustand';
import type { SkipReason, UrlEvent, UrlRecord, UrlState } from '../../shared/crawl.js';
import { commandValue } from './command.js';

/**
 * The per-job URL log, paged from the host: only pages near what is on screen are held, so a
 * million-row log costs a few thousand rows of memory. Live 'urls' events mark held pages stale
 * (a new generation); the log refetches them when they are next on screen.
 */
export const PAGE_SIZE = 200;
export const MAX_CACHED_PAGES = 12;
export const RECENT_EVENTS = 200;

export interface UrlFilter {
  state?: UrlState;
  skipReason?: SkipReason;
  search: string;
}

interface CachedPage {
  gen: number;
  rows: UrlRecord[];
}

export interface UrlLog {
  filter: UrlFilter;
  /** Rows matching the filter, null until the first page arrives. */
  total: number | null;
  /** Bumped by live events; pages fetched in an older generation are stale. */
  gen: number;
  /** Identifies the filter a fetch was made for, so answers to an old filter are dropped. */
  filterSerial: number;
  pages: Record<number, CachedPage>;
  /** Generation being fetched, per page index. */
  pending: Record<number, number>;
}

interface UrlsState {
  logs: Record<string, UrlLog>;
  /** The latest URL events per job, newest last. */
  recent: Record<string, UrlEvent[]>;
  setFilter(id: string, filter: UrlFilter): void;
  ensurePages(id: string, pageIndexes: number[]): Promise<void>;
  applyEvents(id: string, events: UrlEvent[]): void;
  forget(id: string): void;
}

const emptyLog = (filter: UrlFilter, filterSerial: number): UrlLog => ({ filter, total: null, gen: 0, filterSerial, pages: {}, pending: {} });

export const defaultFilter: UrlFilter = { search: '' };

let serial = 0;

export const useUrls = create<UrlsState>()((set, get) => ({
  logs: {},
  recent: {},
  setFilter: (id, filter) => set((s) => ({ logs: { ...s.logs, [id]: emptyLog(filter, ++serial) } })),
  ensurePages: async (id, pageIndexes) => {
    let log = get().logs[id];
    if (!log) {
      get().setFilter(id, defaultFilter);
      log = get().logs[id];
    }
    if (!log) return;
    const { gen, filter, filterSerial } = log;
    const wanted = pageIndexes.filter((i) => i >= 0 && (log.pages[i]?.gen ?? -1) < gen && log.pending[i] !== gen);
    if (wanted.length === 0) return;
    set((s) => {
      const l = s.logs[id];
      if (!l) return s;
      const pending = { ...l.pending };
      for (const i of wanted) pending[i] = gen;
      return { logs: { ...s.logs, [id]: { ...l, pending } } };
    });
    await Promise.all(
      wanted.map(async (index) => {
        const page = await commandValue('jobs.urls', {
          id,
          offset: index * PAGE_SIZE,
          limit: PAGE_SIZE,
          ...(filter.state ? { state: filter.state } : {}),
          ...(filter.skipReason ? { skipReason: filter.skipReason } : {}),
          ...(filter.search ? { search: filter.search } : {}),
        });
        set((s) => {
          const l = s.logs[id];
          if (!l || l.filterSerial !== filterSerial) return s;
          const { [index]: _done, ...pending } = l.pending;
          if (!page) return { logs: { ...s.logs, [id]: { ...l, pending } } };
          const pages = evictFarPages({ ...l.pages, [index]: { gen, rows: page.rows } }, pageIndexes);
          return { logs: { ...s.logs, [id]: { ...l, total: page.total, pages, pending } } };
        });
      }),
    );
  },
  applyEvents: (id, events) =>
    set((s) => {
      const recent = [...(s.recent[id] ?? []), ...events].slice(-RECENT_EVENTS);
      const log = s.logs[id];
      const logs = log ? { ...s.logs, [id]: { ...log, gen: log.gen + 1 } } : s.logs;
      return { recent: { ...s.recent, [id]: recent }, logs };
    }),
  forget: (id) =>
    set((s) => {
      const { [id]: _log, ...logs } = s.logs;
      const { [id]: _recent, ...recent } = s.recent;
      return { logs, recent };
    }),
}));

/** Keeps at most MAX_CACHED_PAGES pages, dropping those farthest from the ones on screen. */
function evictFarPages(pages: Record<number, CachedPage>, onScreen: number[]): Record<number, CachedPage> {
  const keys = Object.keys(pages).map(Number);
  if (keys.length <= MAX_CACHED_PAGES || onScreen.length === 0) return pages;
  const centre = onScreen.reduce((a, b) => a + b, 0) / onScreen.length;
  const keep = keys.sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre)).slice(0, MAX_CACHED_PAGES);
  return Object.fromEntries(keep.map((k) => [k, pages[k] as CachedPage]));
}

/** The row at an index of a job's log, or undefined while its page is not loaded. */
export function rowAt(log: UrlLog | undefined, index: number): UrlRecord | undefined {
  return log?.pages[Math.floor(index / PAGE_SIZE)]?.rows[index % PAGE_SIZE];
}
