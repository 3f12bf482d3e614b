import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from '../url/localPath.js';
import { THUMBNAILS_DIR } from './archiveFolder.js';

// Pictures of rendered pages, beside the mirror: `<archive>/thumbnails/<page's mirror path>.png`.

/** A page's thumbnail, relative to the archive folder (always with '/'), from its mirror path. */
export function thumbnailPathFor(localPath: string): string {
  return `${THUMBNAILS_DIR}/${localPath}.png`;
}

/** A page's full-page screenshot, relative to the archive folder. */
export function screenshotPathFor(localPath: string): string {
  return `${THUMBNAILS_DIR}/${localPath}.full.png`;
}

/** Writes a picture through a temporary name and a rename, so a kill never leaves half an image. */
export async function writeArchiveFile(archiveDir: string, relPath: string, data: Buffer): Promise<void> {
  const abs = resolveInside(archiveDir, relPath);
  await mkdir(path.dirname(abs), { recursive: true });
  const tmp = `${abs}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, abs);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Every thumbnail in an archive, by the relative path thumbnailPathFor gives; read once for a listing. */
export function thumbnailsIn(archiveDir: string): Set<string> {
  const found = new Set<string>();
  const root = path.join(archiveDir, THUMBNAILS_DIR);
  if (!existsSync(root)) return found;
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const childRel = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path.join(dir, e.name), childRel);
      else if (e.name.endsWith('.png') && !e.name.endsWith('.full.png')) found.add(childRel);
    }
  };
  walk(root, THUMBNAILS_DIR);
  return found;
}
