import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** In the data folder: the archives whose pages' own scripts the archivist turned on in `harvest serve`. */
export const VIEWER_SCRIPTS_FILE = 'viewer-scripts.json';

const FileSchema = z.object({ version: z.literal(1), allowed: z.array(z.string()) });

/**
 * Whether an archive's pages may run their own scripts in the viewer of `harvest serve`. Off until
 * the archivist turns them on for that archive: a user's browser can't be made to block WebRTC, so a
 * hostile page's script could send packets anywhere (README, Security model).
 */
export interface ViewerScripts {
  allowed(jobId: string): boolean;
  set(jobId: string, allowed: boolean): void;
}

/** The setting kept in `<dataDir>/viewer-scripts.json` (written to a temporary name and renamed). */
export function viewerScriptsIn(dataDir: string): ViewerScripts {
  const file = path.join(dataDir, VIEWER_SCRIPTS_FILE);
  const allowed = new Set<string>(existsSync(file) ? readList(file) : []);
  return {
    allowed: (jobId) => allowed.has(jobId),
    set(jobId, on) {
      if (on) allowed.add(jobId);
      else allowed.delete(jobId);
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, `${JSON.stringify({ version: 1, allowed: [...allowed] }, null, 2)}\n`);
      renameSync(tmp, file);
    },
  };
}

function readList(file: string): string[] {
  try {
    return FileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).allowed;
  } catch (e) {
    throw new Error(`${file} is not Harvest's list of archives whose scripts run (${(e as Error).message}); remove it to turn every archive's scripts off`);
  }
}
