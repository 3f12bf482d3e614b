import { readlinkSync, statSync } from 'node:fs';

/** What `ArchiveMovedError` says; the CLI tells it apart by this start. */
export const ARCHIVE_MOVED = 'the archive folder was moved or renamed while crawling';

/**
 * The archive folder is no longer where the crawl opened it. Writing on by path would make the
 * old path again and split the archive between two folders, so the crawl stops instead.
 */
export class ArchiveMovedError extends Error {
  readonly code = 'EARCHIVEMOVED';

  constructor(
    readonly oldPath: string,
    readonly newPath: string | null,
  ) {
    super(
      newPath === null
        ? `${ARCHIVE_MOVED}: resume it at its new place; nothing more was written at ${oldPath}`
        : `${ARCHIVE_MOVED}: resume it at its new place with 'harvest resume ${newPath}'; nothing more was written at ${oldPath}`,
    );
    this.name = 'ArchiveMovedError';
  }
}

export interface FolderIdentity {
  dev: number;
  ino: number;
}

/** The folder's device and inode, or null when nothing is at `dir`. */
export function identityOf(dir: string): FolderIdentity | null {
  try {
    const st = statSync(dir);
    return { dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

/** Throws ArchiveMovedError unless `dir` is still the folder `id` names; `fd`, a handle on it, tells where it went (Linux). */
export function checkIdentity(dir: string, id: FolderIdentity, fd?: number): void {
  const now = identityOf(dir);
  if (now !== null && now.dev === id.dev && now.ino === id.ino) return;
  let newPath: string | null = null;
  if (fd !== undefined) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (!target.endsWith(' (deleted)')) newPath = target;
    } catch {
      // Not Linux: the message can't say where.
    }
  }
  throw new ArchiveMovedError(dir, newPath);
}
