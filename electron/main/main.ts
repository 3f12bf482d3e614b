import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, webFrameMain } from 'electron';
import { startEngineHost, type EngineHost } from '../host/engineHost.js';
import { EXPORTERS } from '../engine/export/exporters.js';
import { desktopShell } from './desktopShell.js';
import { wireIpc } from './ipc.js';
import { keepOnAppOrigin, lockDownSession, lockDownWindows } from './lockdown.js';
import { installMenu } from './menu.js';
import { captureReplayOf } from '../host/captureReplay.js';
import { ARCHIVE_SCHEME, handleSchemes, registerSchemes } from './protocols.js';
import { APP_ORIGIN } from './senderCheck.js';
import { ViewerFrames } from './viewerFrames.js';

/** Electron's main process: windows, menus, dialogs and the engine host; the renderer talks to it only through the preload's API. */
const RENDERER_DIR = fileURLToPath(new URL('../../renderer/', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../preload/preload.cjs', import.meta.url));

let mainWindow: BrowserWindow | null = null;
let host: EngineHost | null = null;
let shutDown = false;
const viewerFrames = new ViewerFrames(ARCHIVE_SCHEME);

registerSchemes();
lockDownWindows();

if (!app.requestSingleInstanceLock()) app.quit();
app.on('second-instance', () => {
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
});

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Harvest',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  keepOnAppOrigin(win);
  // The viewer's address comes from here, not from what the archived page says (see viewerFrames.ts).
  win.webContents.on('did-frame-navigate', (_e, url, _code, _status, isMainFrame, processId, routingId) => {
    const frame = isMainFrame ? undefined : webFrameMain.fromId(processId, routingId);
    if (frame && frame.parent?.frameTreeNodeId === win.webContents.mainFrame.frameTreeNodeId) viewerFrames.navigated(url);
  });
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

app.whenReady().then(() => {
  lockDownSession();
  installMenu();
  const engine = startEngineHost({ dataDir: app.getPath('userData'), exporters: EXPORTERS, shell: desktopShell(() => mainWindow, (jobId) => viewerFrames.locate(jobId)) });
  host = engine;
  handleSchemes(RENDERER_DIR, (jobId) => {
    try {
      return engine.jobs.get(jobId).archiveDir;
    } catch {
      return null;
    }
  }, captureReplayOf(() => engine.jobs));
  wireIpc(engine, () => mainWindow);
  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quitting pauses and checkpoints every running crawl before the process ends.
app.on('before-quit', (e) => {
  if (shutDown || !host) return;
  e.preventDefault();
  const h = host;
  host = null;
  void h.shutdown().finally(() => {
    shutDown = true;
    app.quit();
  });
});
