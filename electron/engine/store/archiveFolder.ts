import Database from 'better-sqlite3';
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writerLockFile } from './sqlite/writerLock.js';

/**
 * What Harvest puts in an archive folder, and so all it may ever delete there: the catalogue and the
 * full-text index with their SQLite side files (and an index being rebuilt), the catalogue's writer
 * lock, the offline copy, the WARC files, the thumbnails of rendered pages, what a page analysis keeps, a live control request, the folder of partial writes, and the probe file of the writability check. (Exports are written where the archivist chose, never counted here.)
 */
export const CATALOGUE_FILE = 'catalogue.sqlite';
export const TEXT_INDEX_FILE = 'text.sqlite';
export const MIRROR_DIR = 'mirror';
export const WARC_DIR = 'warc';
export const TMP_DIR = '.partial';
/** Pictures of rendered pages (see thumbnails.ts). */
export const THUMBNAILS_DIR = 'thumbnails';
/** What a page analysis keeps of each compared page (see qa/evidence.ts). */
export const QA_DIR = 'qa';
/** A live politeness change waiting for the running crawl (see crawl/liveControl.ts). */
export const CONTROL_FILE = 'control.json';
/**
 * Written before anything else in a new archive folder: what marks the folder as Harvest's, so a
 * folder that merely holds entries with Harvest's names (someone's own `mirror/`) is never taken
 * for an archive, written into or emptied.
 */
export const ARCHIVE_MARKER = '.harvest-archive';
const sqliteFiles = (db: string): string[] => [db, `${db}-wal`, `${db}-shm`, `${db}-journal`];
const HARVEST_NAMES: ReadonlySet<string> = new Set([
  ...sqliteFiles(CATALOGUE_FILE),
  writerLockFile(CATALOGUE_FILE),
  ...sqliteFiles(TEXT_INDEX_FILE),
  ...sqliteFiles(`${TEXT_INDEX_FILE}.building`),
  MIRROR_DIR,
  WARC_DIR,
  TMP_DIR,
  THUMBNAILS_DIR,
  QA_DIR,
  CONTROL_FILE,
  ARCHIVE_MARKER,
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
 * Whether Harvest made the folder: it holds the marker, or (an archive made before the marker) a
 * catalogue of Harvest's: a regular file that is empty (its creation was interrupted) or a SQLite
 * database with the catalogue's tables. Links are not followed.
 */
export function madeByHarvest(abs: string): boolean {
  const regular = (name: string) => {
    try {
      return lstatSync(path.join(abs, name)).isFile();
    } catch {
      return false;
    }
  };
  if (regular(ARCHIVE_MARKER)) return true;
  const catalogue = path.join(abs, CATALOGUE_FILE);
  if (!regular(CATALOGUE_FILE)) return false;
  if (lstatSync(catalogue).size === 0) return true;
  try {
    const db = new Database(catalogue, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'urls')`).get() as { n: number };
      return tables.n === 2;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/**
 * Why `abs` can't take a new archive, or null: it must not be protected, and if it exists and holds
 * anything, it must be an archive folder Harvest made (see madeByHarvest; the catalogue says
 * whether it already holds an archive) holding nothing but Harvest's entries.
 */
export function newArchiveFolderProblem(abs: string, ctx: FolderContext = here()): string | null {
  const reason = protectedFolderReason(abs, ctx);
  if (reason) return `${reason}; choose a new or empty folder for the archive`;
  if (!existsSync(abs) || !lstatSync(abs).isDirectory()) return null;
  const entries = readdirSync(abs).filter((n) => !n.startsWith(WRITE_PROBE_PREFIX));
  if (entries.length === 0) return null;
  const foreign = entries.filter((n) => !isHarvestEntry(n));
  if (foreign.length === 0 && madeByHarvest(abs)) return null;
  const shown = foreign.length > 0 ? foreign : entries;
  const listed = shown.slice(0, 3).map((n) => `'${n}'`).join(', ');
  return `${abs} is not empty and is not a Harvest archive (it holds ${listed}${shown.length > 3 ? ` and ${shown.length - 3} more` : ''}); choose a new or empty folder for the archive`;
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
 * empty; nothing in a folder Harvest did not make (see madeByHarvest). Symbolic links are removed
 * as links, never followed.
 */
export function removeArchiveContents(abs: string, ctx: FolderContext = here()): RemovalReport {
  if (!existsSync(abs)) return { removed: [], leftBehind: [], folderRemoved: false, refused: null };
  const reason = protectedFolderReason(abs, ctx);
  const names = readdirSync(abs).sort();
  if (reason) return { removed: [], leftBehind: names, folderRemoved: false, refused: reason };
  if (names.length > 0 && !madeByHarvest(abs)) return { removed: [], leftBehind: names, folderRemoved: false, refused: `${abs} was not made by Harvest` };
  const removed: string[] = [];
  const leftBehind: string[] = [];
  // The marks of Harvest's folder go last: an interrupted removal leaves a folder still known as its.
  const last = (n: string) => (n === ARCHIVE_MARKER || n.startsWith(CATALOGUE_FILE) ? 1 : 0);
  for (const name of [...names].sort((a, b) => last(a) - last(b))) {
    if (!isHarvestEntry(name)) {
      leftBehind.push(name);
      continue;
    }
    rmSync(path.join(abs, name), { recursive: true, force: true });
    removed.push(name);
  }
  removed.sort();
  let folderRemoved = false;
  if (leftBehind.length === 0) {
    rmdirSync(abs);
    folderRemoved = true;
  }
  return { removed, leftBehind, folderRemoved, refused: null };
}
