import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { QaEvidence, QaSide } from '../../../shared/qa.js';
import { QA_DIR } from '../store/archiveFolder.js';
import { writeArchiveFile } from '../store/thumbnails.js';
import { resolveInside } from '../url/localPath.js';

/**
 * What the analysis keeps of each compared page for the side-by-side view: both first-screenful
 * captures and both visible texts, in the archive folder beside the thumbnails:
 * `qa/<capture>/<mirror path>.<side>.png` and `.txt`. Written as thumbnails are (a temporary name,
 * then a rename), so a kill never leaves half a file.
 */

/** A page's kept capture or text, relative to the archive folder ('/'-separated). */
export function evidencePath(capture: number, localPath: string, side: QaSide, kind: 'png' | 'txt'): string {
  return `${QA_DIR}/${capture}/${localPath}.${side}.${kind}`;
}

/** What each side showed; a copy that could not be rendered has none. */
export type PageEvidence = { reference: { image: Buffer; text: string } } & Partial<Record<'copy' | 'replay', { image: Buffer; text: string }>>;

const SIDES: readonly QaSide[] = ['reference', 'copy', 'replay'];

export async function writeEvidence(archiveDir: string, capture: number, localPath: string, e: PageEvidence): Promise<void> {
  for (const side of SIDES) {
    const shown = e[side];
    if (shown === undefined) {
      await removeSide(archiveDir, capture, localPath, side);
      continue;
    }
    await writeArchiveFile(archiveDir, evidencePath(capture, localPath, side, 'png'), shown.image);
    await writeArchiveFile(archiveDir, evidencePath(capture, localPath, side, 'txt'), Buffer.from(shown.text, 'utf8'));
  }
}

/** Removes a page's kept files (its new result has none: it could not be compared). */
export async function removeEvidence(archiveDir: string, capture: number, localPath: string): Promise<void> {
  for (const side of SIDES) await removeSide(archiveDir, capture, localPath, side);
}

async function removeSide(archiveDir: string, capture: number, localPath: string, side: QaSide): Promise<void> {
  for (const kind of ['png', 'txt'] as const) await rm(resolveInside(archiveDir, evidencePath(capture, localPath, side, kind)), { force: true });
}

/** Removes everything kept of a capture's analysis (a fresh analysis replaces it). */
export async function clearEvidence(archiveDir: string, capture: number): Promise<void> {
  await rm(path.join(archiveDir, QA_DIR, String(capture)), { recursive: true, force: true });
}

/** Texts longer than this are cut for the view (the figures were computed on the whole text). */
const MAX_TEXT_CHARS = 200_000;

/** One side of a page as the app shows it; nulls for what was not kept. */
export function readEvidence(archiveDir: string, capture: number, localPath: string, side: QaSide): QaEvidence {
  const read = (kind: 'png' | 'txt'): Buffer | null => {
    const file = resolveInside(archiveDir, evidencePath(capture, localPath, side, kind));
    return existsSync(file) ? readFileSync(file) : null;
  };
  const image = read('png');
  const text = read('txt')?.toString('utf8') ?? null;
  return {
    image: image === null ? null : `data:image/png;base64,${image.toString('base64')}`,
    text: text === null ? null : text.slice(0, MAX_TEXT_CHARS),
  };
}
