import { COMMANDS, type CommandName, type HarvestApi, type HostEvent, type Reply } from '../../shared/contract.js';
import { commandUrl, eventsUrl } from '../../shared/webRoutes.js';
import type { RendererApi } from './types.js';

/** What the web transport needs from the browser, injectable for tests. */
export interface WebTransportDeps {
  fetch: typeof fetch;
  EventSource: new (url: string) => EventSource;
  /** Delay before reopening an event stream the browser gave up on. */
  retryDelayMs?: number;
}

/**
 * HarvestApi over the `harvest serve` web host: commands as JSON POSTs, events as Server-Sent
 * Events. The browser retries a dropped stream by itself unless the server refused it, in which
 * case it is reopened here; either way listeners of onReconnect learn that events may have been
 * missed, so state can be refreshed.
 */
export function createWebTransport(appBase: string, deps: WebTransportDeps): RendererApi {
  const listeners = new Set<(e: HostEvent) => void>();
  const reconnectListeners = new Set<() => void>();
  const retryDelayMs = deps.retryDelayMs ?? 2000;
  let source: EventSource | null = null;
  let everOpened = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const open = (): void => {
    const es = new deps.EventSource(eventsUrl(appBase));
    source = es;
    es.onopen = () => {
      if (everOpened) for (const l of reconnectListeners) l();
      everOpened = true;
    };
    es.onmessage = (m: MessageEvent<string>) => {
      let event: HostEvent;
      try {
        event = JSON.parse(m.data) as HostEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(event);
    };
    es.onerror = () => {
      if (es.readyState !== 2 /* CLOSED */ || listeners.size === 0) return;
      es.close();
      retryTimer = setTimeout(() => {
        retryTimer = null;
        if (listeners.size > 0) open();
      }, retryDelayMs);
    };
  };

  const close = (): void => {
    source?.close();
    source = null;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };

  const call = async (command: CommandName, args: unknown): Promise<Reply<unknown>> => {
    try {
      const res = await deps.fetch(commandUrl(appBase, command), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args ?? {}),
      });
      return (await res.json()) as Reply<unknown>;
    } catch (err) {
      return { ok: false, error: { code: 'internal', message: `The Harvest host did not answer (${String(err)})` } };
    }
  };

  const commands = Object.fromEntries(
    (Object.keys(COMMANDS) as CommandName[]).map((c) => [c, (args: unknown) => call(c, args)]),
  ) as unknown as Omit<HarvestApi, 'onEvent'>;

  return {
    ...commands,
    onEvent(listener) {
      listeners.add(listener);
      if (!source) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) close();
      };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  };
}
