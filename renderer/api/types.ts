import type { HarvestApi } from '../../shared/contract.js';

/**
 * The contract's API plus what only some transports can tell: the web transport's event stream can
 * drop and reconnect, after which state must be refreshed. The Electron preload never drops events.
 */
export type RendererApi = HarvestApi & {
  onReconnect?(listener: () => void): () => void;
};
