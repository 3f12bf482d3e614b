import { existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ExportUsageError } from './errors.js';

/**
 * Writes a file so it appears under `outPath` only once complete: `write` fills `<out>.partial`,
 * which is fsynced and renamed (then the folder fsynced, so the rename survives a power cut). On
 * failure or abort the partial file is removed. An existing `outPath` is refused, never replaced.
 */
export async function writeAtomically(
  outPath: string,
  signal: AbortSignal | undefined,
  write: (partialPath: string) => Promise<void>,
): Promise<void> {
  const out = path.resolve(outPath);
  if (existsSync(out)) throw new ExportUsageError(`${out} already exists; choose another --out or remove it first`);
  if (!existsSync(path.dirname(out))) throw new ExportUsageError(`folder ${path.dirname(out)} does not exist`);
  const partial = `${out}.partial`;
  try {
    signal?.throwIfAborted();
    await write(partial);
    signal?.throwIfAborted();
    await fsync(partial, 'r+');
    if (existsSync(out)) throw new ExportUsageError(`${out} appeared while exporting; left as it was`);
    await rename(partial, out);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  await fsync(path.dirname(out), 'r').catch(() => {}); // not every platform can open a folder
}

async function fsync(file: string, flags: string): Promise<void> {
  const fh = await open(file, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
