import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What Harvest puts in an archive folder, and so all it may ever delete there: the catalogue and the
 * full-text index with their SQLite side files (and an index being rebuilt), the offline copy, the
 * WARC files, the thumbnails of rendered pages, a live control request, the folder of partial writes, and the probe file of the writability check. (Exports are written where the archivist chose, never counted here.)
 */
export const CATALOGUE_FILE = 'catalogue.sqlite';
export const TEXT_INDEX_FILE = 'text.sqlite';
export const MIRROR_DIR = 'mirror';
export const WARC_DIR = 'warc';
export const TMP_DIR = '.partial';
/** Pictures of rendered pages (see thumbnails.ts). */
export const THUMBNAILS_DIR = 'thumbnails';
/** A live politeness change waiting for the running crawl (see crawl/liveControl.ts). */
export const CONTROL_FILE = 'control.json';
const sqliteFiles = (db: string): string[] => [db, `${db}-wal`, `${db}-shm`, `${db}-journal`];
const HARVEST_NAMES: ReadonlySet<string> = new Set([
  ...sqliteFiles(CATALOGUE_FILE),
  ...sqliteFiles(TEXT_INDEX_FILE),
  ...sqliteFiles(`${TEXT_INDEX_FILE}.building`),
  MIRROR_DIR,
  WARC_DIR,
  TMP_DIR,
  THUMBNAILS_DIR,
  CONTROL_FILE,
]);
export const WRITE_PROBE_PREFIX = '.harvest-write-test-';

export function isHarvestEntry(name: string): boolean {
  return HARVEST_NAMES.has(name) || name.startsWith(WRITE_PROBE_PREFIX);
}

export interface FolderContext {
  home: string;
  platform: NodeJS.Platform;
}

const here = (): FolderContext => ({ home: os.homedir(), platform: process.platform });

/** Folders that hold the system: refused themselves and everything inside them. */
const SYSTEM_TREES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/run', '/sbin', '/sys', '/usr'],
  darwin: ['/bin', '/dev', '/etc', '/Library', '/private', '/sbin', '/System', '/usr', '/Applications'],
};
/** Folders that hold other people's or the system's folders: refused themselves, not what is inside. */
const SHARED_ROOTS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/home', '/media', '/mnt', '/opt', '/root', '/srv', '/tmp', '/var', '/var/tmp'],
  darwin: ['/Users', '/Volumes', '/opt', '/tmp', '/var'],
};
const WINDOWS_TREES = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData'];
const WINDOWS_ROOTS = ['Users'];

/**
 * Why a folder may never be an archive folder (and so never have anything deleted in it): a file
 * system root, the home folder or one above it, or a system folder. Null when it may be.
 */
export function protectedFolderReason(dir: string, ctx: FolderContext = here()): string | null {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const abs = p.resolve(dir);
  const same = (a: string, b: string) => (ctx.platform === 'linux' ? a === b : a.toLowerCase() === b.toLowerCase());
  const inside = (a: string, tree: string) => same(a, tree) || (ctx.platform === 'linux' ? a : a.toLowerCase()).startsWith((ctx.platform === 'linux' ? tree : tree.toLowerCase()) + p.sep);
  if (same(abs, p.parse(abs).root)) return `${abs} is the root of a disk`;
  const home = p.resolve(ctx.home);
  if (same(abs, home)) return `${abs} is your home folder`;
  if (inside(home, abs)) return `${abs} holds your home folder`;
  if (ctx.platform === 'win32') {
    const root = p.parse(abs).root;
    if (WINDOWS_TREES.some((t) => inside(abs, p.join(root, t))) || WINDOWS_ROOTS.some((t) => same(abs, p.join(root, t)))) return `${abs} is a system folder`;
    return null;
  }
  if ((SYSTEM_TREES[ctx.platform] ?? SYSTEM_TREES.linux!).some((t) => inside(abs, t))) return `${abs} is a system folder`;
  if ((SHARED_ROOTS[ctx.platform] ?? SHARED_ROOTS.linux!).some((t) => same(abs, t))) return `${abs} is a system folder`;
  return null;
}

/**
 * Why `abs` can't take a new archive, or null: it must not be protected, and if it exists and holds
 * anything, it must be a Harvest archive folder (the catalogue says whether it already holds one).
 */
export function newArchiveFolderProblem(abs: string, ctx: FolderContext = here()): string | null {
  const reason = protectedFolderReason(abs, ctx);
  if (reason) return `${reason}; choose a new or empty folder for the archive`;
  if (!existsSync(abs) || !lstatSync(abs).isDirectory()) return null;
  const foreign = readdirSync(abs).filter((n) => !isHarvestEntry(n));
  if (foreign.length === 0) return null;
  const shown = foreign.slice(0, 3).map((n) => `'${n}'`).join(', ');
  return `${abs} is not empty and is not a Harvest archive (it holds ${shown}${foreign.length > 3 ? ` and ${foreign.length - 3} more` : ''}); choose a new or empty folder for the archive`;
}

export interface RemovalReport {
  removed: string[];
  leftBehind: string[];
  folderRemoved: boolean;
  /** Set when nothing was removed because the folder is protected. */
  refused: string | null;
}

/**
 * Deletes what Harvest made in an archive folder and nothing else, then the folder if that left it
 * empty. Symbolic links are removed as links, never followed.
 */
export function removeArchiveContents(abs: string, ctx: FolderContext = here()): RemovalReport {
  if (!existsSync(abs)) return { removed: [], leftBehind: [], folderRemoved: false, refused: null };
  const reason = protectedFolderReason(abs, ctx);
  const names = readdirSync(abs).sort();
  if (reason) return { removed: [], leftBehind: names, folderRemoved: false, refused: reason };
  const removed: string[] = [];
  const leftBehind: string[] = [];
  for (const name of names) {
    if (!isHarvestEntry(name)) {
      leftBehind.push(name);
      continue;
    }
    rmSync(path.join(abs, name), { recursive: true, force: true });
    removed.push(name);
  }
  let folderRemoved = false;
  if (leftBehind.length === 0) {
    rmdirSync(abs);
    folderRemoved = true;
  }
  return { removed, leftBehind, folderRemoved, refused: null };
}
