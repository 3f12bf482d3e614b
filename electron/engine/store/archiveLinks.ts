import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { isHarvestEntry, WARC_DIR } from './archiveFolder.js';

/**
 * Symbolic links where an archive holds its own entries. Harvest never makes one, and following one
 * would serve or export files from outside the archive folder (a crafted folder whose `mirror/`
 * points at /etc, or a `warc/*.warc.gz` at a private file). The WARC folder is checked entry by
 * entry (its files are few, and readers open them by the names the catalogue keeps); the offline
 * copy's files are checked where they are read (its walk skips links, its server stays inside).
 */
export function linksInArchive(dir: string): string[] {
  const found: string[] = [];
  const check = (rel: string): void => {
    try {
      if (lstatSync(path.join(dir, rel)).isSymbolicLink()) found.push(`${rel} -> ${readlinkSync(path.join(dir, rel))}`);
    } catch {
      // Missing: nothing to follow.
    }
  };
  let top: string[];
  try {
    top = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of top.filter(isHarvestEntry)) check(name);
  if (found.some((f) => f.startsWith(`${WARC_DIR} `))) return found;
  try {
    for (const name of readdirSync(path.join(dir, WARC_DIR))) check(`${WARC_DIR}/${name}`);
  } catch {
    // No WARC folder (a --no-warc crawl).
  }
  return found;
}

/** The refusal of a folder with links where its entries belong, naming them. */
export function linksRefusal(dir: string, links: string[]): string {
  return `${dir} is refused: ${links.join(', ')} ${links.length === 1 ? 'is a symbolic link' : 'are symbolic links'}, and Harvest never follows a link out of an archive folder`;
}
