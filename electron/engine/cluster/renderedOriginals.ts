import { readFileSync } from 'node:fs';
import { writeArchiveFile } from '../store/thumbnails.js';
import { resolveInside } from '../url/localPath.js';

/**
 * Rendered pages' DOM, deflated as the local catalogue keeps it, in the shared store:
 * `<store>/rendered/<mirror path>`. A local crawl keeps it in its catalogue as the page's original
 * for the finishing pass; a cluster's pass finds other originals in the WARC files, which hold the
 * response as fetched, so the DOM the browser showed is kept here.
 */
export const RENDERED_DIR = 'rendered';

export function writeRenderedOriginal(store: string, localPath: string, packed: Buffer): Promise<void> {
  return writeArchiveFile(store, `${RENDERED_DIR}/${localPath}`, packed);
}

/** The packed DOM of the page saved at `localPath`, or null when it was not rendered (read inside a catalogue transaction). */
export function readRenderedOriginal(store: string, localPath: string): Buffer | null {
  try {
    return readFileSync(resolveInside(store, `${RENDERED_DIR}/${localPath}`));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
