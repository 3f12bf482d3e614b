import type { HarvestApi } from '../../shared/contract.js';
import { appBaseOf } from '../../shared/webRoutes.js';
import type { RendererApi } from './types.js';
import { createWebTransport } from './webTransport.js';

export type { RendererApi } from './types.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload through contextBridge. */
    harvest?: HarvestApi;
  }
}

let current: RendererApi | null = null;

/** The preload's API inside Electron, else the web transport to the `harvest serve` host this page came from. */
export function detectApi(): RendererApi {
  if (window.harvest) return window.harvest;
  const base = appBaseOf(location.pathname) ?? '/';
  return createWebTransport(base, { fetch: window.fetch.bind(window), EventSource: window.EventSource });
}

/** Installs the API the stores' actions use (a fake one in tests). */
export function setApi(api: RendererApi): void {
  current = api;
}

export function api(): RendererApi {
  if (!current) throw new Error('The Harvest API is not installed yet');
  return current;
}
