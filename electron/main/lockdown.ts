import { app, session, type BrowserWindow } from 'electron';
import { sealContents } from './contentsPolicy.js';
import { APP_ORIGIN } from './senderCheck.js';

/**
 * The app needs no network: every http(s) and websocket request of the session is cancelled, so
 * neither the UI nor an archived page can reach the internet. No permission is ever granted (media
 * and WebRTC's device access included).
 */
export function lockDownSession(): void {
  const ses = session.defaultSession;
  ses.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (_details, callback) => callback({ cancel: true }));
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

/** No new windows from anywhere; the main window never leaves the app's origin; no webviews; no WebRTC traffic. */
export function lockDownWindows(): void {
  app.on('web-contents-created', (_e, contents) => sealContents(contents));
}

export function keepOnAppOrigin(win: BrowserWindow): void {
  const stay = (e: Electron.Event, url: string) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) e.preventDefault();
  };
  win.webContents.on('will-navigate', stay);
  win.webContents.on('will-redirect', stay);
}
