import path from 'node:path';
import { dialog, shell, type BrowserWindow } from 'electron';
import type { HostShell } from '../host/commands.js';
import { ARCHIVE_VIEWER_BASE } from './protocols.js';

const EXTENSIONS = { wacz: ['wacz'], warc: ['gz'], zip: ['zip'], bagit: [] as string[] };

/** Native dialogs and the desktop's file manager and default browser; `frameLocation` from the main process's view of the viewer frame. */
export function desktopShell(win: () => BrowserWindow | null, frameLocation: (jobId: string) => string | null): HostShell {
  return {
    frameLocation: (jobId) => frameLocation(jobId),
    host: 'electron',
    viewerBase: ARCHIVE_VIEWER_BASE,
    async chooseFolder(title) {
      const w = win();
      const opts = { title: title ?? 'Choose a folder', properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] };
      const r = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    async chooseExportPath({ archiveDir, format }) {
      const w = win();
      const ext = EXTENSIONS[format];
      const opts = {
        title: `Export as ${format.toUpperCase()}`,
        defaultPath: path.join(path.dirname(archiveDir), `${path.basename(archiveDir)}${format === 'bagit' ? '-bag' : format === 'warc' ? '.warc.gz' : `.${format}`}`),
        filters: ext.length ? [{ name: format.toUpperCase(), extensions: ext }] : [],
      };
      const r = w ? await dialog.showSaveDialog(w, opts) : await dialog.showSaveDialog(opts);
      return r.canceled ? null : (r.filePath ?? null);
    },
    async chooseImportFiles() {
      const w = win();
      const opts = {
        title: 'Import WARC or WACZ files',
        properties: ['openFile', 'multiSelections'] as ('openFile' | 'multiSelections')[],
        filters: [
          { name: 'Web archives', extensions: ['warc', 'gz', 'wacz'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
      const r = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths;
    },
    async revealFolder(dir) {
      shell.showItemInFolder(dir);
    },
    async openFile(file) {
      const error = await shell.openPath(file);
      if (error) throw new Error(error);
    },
  };
}
