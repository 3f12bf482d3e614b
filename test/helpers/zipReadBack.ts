// Reads zip files back with yauzl, independently of the writer (yazl).
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export interface ExtractedEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  compressionMethod: number;
  size: number;
}

/** Extracts every entry into `dest` (names checked by yauzl), returning the entries in zip order. */
export async function extractZip(file: string, dest: string): Promise<ExtractedEntry[]> {
  const zip = await yauzl.openPromise(file);
  const entries: ExtractedEntry[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, size: entry.uncompressedSize });
      const target = path.join(dest, entry.fileName);
      mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target));
    }
  } finally {
    zip.close();
  }
  return entries;
}
