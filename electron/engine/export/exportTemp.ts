import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** Hidden work folders of exports, beside their output: `.harvest-export-<pid>-XXXXXX`. */
const PREFIX = '.harvest-export-';

/** A work folder for an export writing into `outDir`, named with this process's id so a later run can tell it is orphaned. */
export function makeExportTemp(outDir: string): Promise<string> {
  return mkdtemp(path.join(outDir, `${PREFIX}${process.pid}-`));
}

/**
 * Removes the work folders in `dir` left by exports whose process is gone (killed, or the machine
 * lost power), so each kill does not leave hundreds of megabytes behind. A folder whose process
 * still runs is another export's, and is left alone. Returns how many were removed; never throws.
 */
export async function sweepExportTemps(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = ownerOf(name);
    if (pid === null || pid === process.pid || isAlive(pid)) continue;
    try {
      await rm(path.join(dir, name), { recursive: true, force: true });
      removed += 1;
    } catch {
      // A folder that cannot be removed now is tried again at the next export.
    }
  }
  return removed;
}

function ownerOf(name: string): number | null {
  const m = /^\.harvest-export-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  return m ? Number(m[1]) : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
