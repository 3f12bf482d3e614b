import { existsSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** The export's target already exists; exports never overwrite. */
export class OutputExistsError extends Error {
  constructor(readonly outPath: string) {
    super(`${outPath} already exists; choose another name or remove it first`);
    this.name = 'OutputExistsError';
  }
}

/** Where an export is built before it is renamed to its final name. */
export function partialPathOf(outPath: string): string {
  return `${path.resolve(outPath)}.partial`;
}

export function refuseExisting(outPath: string): void {
  if (existsSync(outPath)) throw new OutputExistsError(path.resolve(outPath));
}

/** Flushes a file's data to disk, so a rename after it never exposes a file the OS has not written. */
export async function fsyncPath(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Moves a finished `<out>.partial` to `outPath` and flushes the folder entry. If `outPath` appeared
 * while the export ran, the partial is removed and the export refused rather than overwrite it.
 */
export async function commitPartial(partial: string, outPath: string): Promise<void> {
  if (existsSync(outPath)) {
    await rm(partial, { recursive: true, force: true });
    throw new OutputExistsError(path.resolve(outPath));
  }
  await rename(partial, outPath);
  let dir: FileHandle | undefined;
  try {
    dir = await open(path.dirname(path.resolve(outPath)), 'r');
    await dir.sync();
  } catch {
    // Some systems (Windows) cannot open a folder for fsync; the rename itself is still atomic.
  } finally {
    await dir?.close();
  }
}
