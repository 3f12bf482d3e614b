import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { COMMANDS, type CommandName, type HarvestApi, type HostEvent } from '../../shared/contract.js';
import { commandChannel, EVENT_CHANNEL } from '../../shared/ipcChannels.js';

/**
 * window.harvest: one function per command, each on its own IPC channel (no generic invoke is
 * exposed), plus the event subscription. Bundled into one CommonJS file because sandboxed preloads
 * cannot load local modules.
 */
type Commands = Omit<HarvestApi, 'onEvent'>;

const commands = Object.fromEntries(
  (Object.keys(COMMANDS) as CommandName[]).map((name) => [name, (args: unknown) => ipcRenderer.invoke(commandChannel(name), args)]),
) as Commands;

const api: HarvestApi = {
  ...commands,
  onEvent(listener: (e: HostEvent) => void) {
    // The IPC event object stays on this side of the bridge.
    const handler = (_e: IpcRendererEvent, payload: HostEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('harvest', api);
