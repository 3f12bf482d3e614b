import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { COMMANDS, type CommandName, type HostEvent, type Reply } from '../../shared/contract.js';
import { commandChannel, EVENT_CHANNEL } from '../../shared/ipcChannels.js';
import type { EngineHost } from '../host/engineHost.js';
import { isTrustedSender } from './senderCheck.js';

/**
 * One handler per command, each checking its sender; the host validates the arguments. Events go
 * to the app window only.
 */
export function wireIpc(host: EngineHost, appWindow: () => BrowserWindow | null): void {
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    ipcMain.handle(commandChannel(name), async (event: IpcMainInvokeEvent, args: unknown): Promise<Reply<unknown>> => {
      const win = appWindow();
      const frame = event.senderFrame;
      const trusted = isTrustedSender({
        frameUrl: frame?.url,
        isTopFrame: frame !== null && frame.parent === null,
        senderId: event.sender.id,
        appWindowId: win && !win.isDestroyed() ? win.webContents.id : null,
      });
      if (!trusted) return { ok: false, error: { code: 'unsupported', message: 'not the Harvest window' } };
      return host.handle(name, args);
    });
  }
  host.onEvent((e: HostEvent) => {
    const win = appWindow();
    if (win && !win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, e);
  });
}
