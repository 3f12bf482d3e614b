import type { HostEvent } from '../shared/contract.js';
import type { RendererApi } from './api/index.js';
import { useApp } from './stores/app.js';
import { useArchives } from './stores/archives.js';
import { useClusters } from './stores/clusters.js';
import { commandValue } from './stores/command.js';
import { useExports } from './stores/exports.js';
import { useImports } from './stores/imports.js';
import { useJobs } from './stores/jobs.js';
import { useProgress } from './stores/progress.js';
import { useUrls } from './stores/urls.js';

/** Routes one host event to the stores: the only place that listens to the transport's events. */
export function dispatchHostEvent(e: HostEvent): void {
  switch (e.type) {
    case 'job': {
      const before = useJobs.getState().byId[e.job.id];
      useJobs.getState().upsert(e.job);
      // The library shows status, pages and size, which settle when a run changes state or another
      // process (harvest recrawl) makes a capture.
      if (before?.status !== e.job.status || before?.capture !== e.job.capture || before?.pages !== e.job.pages) void useArchives.getState().load();
      break;
    }
    case 'job-deleted':
      useJobs.getState().removeLocal(e.id);
      useArchives.getState().removeLocal(e.id);
      useProgress.getState().forget(e.id);
      useUrls.getState().forget(e.id);
      break;
    case 'progress':
      useProgress.getState().apply(e.id, e.progress);
      break;
    case 'urls':
      useUrls.getState().applyEvents(e.id, e.events);
      break;
    case 'export':
      useExports.getState().apply(e.export);
      break;
    case 'import':
      useImports.getState().apply(e.import);
      break;
    case 'cluster':
      useClusters.getState().upsert(e.cluster);
      break;
    case 'cluster-detached':
      useClusters.getState().removeLocal(e.id);
      break;
  }
}

/** Loads everything the screens show from the host, and the rate history of running jobs (so graphs survive a reload). */
export async function refreshAll(): Promise<void> {
  await Promise.all([useApp.getState().load(), useJobs.getState().load(), useArchives.getState().load(), useClusters.getState().load()]);
  const running = Object.values(useJobs.getState().byId).filter((j) => j.status === 'running' || j.status === 'pausing');
  await Promise.all(
    running.map(async (j) => {
      const h = await commandValue('jobs.progress', { id: j.id });
      if (h) useProgress.getState().seed(j.id, h);
    }),
  );
}

/** Subscribes the stores to the host's events and loads the initial state; returns the disconnect function. */
export function connectStores(api: RendererApi): () => void {
  const offEvents = api.onEvent(dispatchHostEvent);
  const offReconnect = api.onReconnect?.(() => void refreshAll());
  void refreshAll();
  return () => {
    offEvents();
    offReconnect?.();
  };
}

/** Keeps the app store's dark flag equal to the OS colour scheme. */
export function followColorScheme(win: Window): () => void {
  const query = win.matchMedia('(prefers-color-scheme: dark)');
  const update = (): void => useApp.getState().setDark(query.matches);
  update();
  query.addEventListener('change', update);
  return () => query.removeEventListener('change', update);
}
