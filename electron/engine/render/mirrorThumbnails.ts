import type { RenderSettings } from '../../../shared/job.js';
import type { Archive } from '../store/archive.js';
import { thumbnailPathFor, thumbnailsIn, writeArchiveFile } from '../store/thumbnails.js';
import { BrowserPool } from './browserPool.js';
import { MirrorBroker, mirrorUrlOf } from './mirrorBroker.js';
import { RenderAbortedError } from './types.js';

/** Pages of the catalogue read at once. */
const BATCH = 256;

export interface MirrorThumbnailsResult {
  made: number;
  /** Pages that already had one. */
  kept: number;
  failed: { url: string; error: string }[];
}

/**
 * Makes a thumbnail for every archived page of a finished archive that has none, by showing its
 * offline copy in the browser with nothing but the mirror reachable.
 */
export async function thumbnailMirror(
  archive: Archive,
  settings: RenderSettings & { executablePath: string },
  opts: { signal: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<MirrorThumbnailsResult> {
  const c = archive.catalogue;
  const have = thumbnailsIn(archive.dir);
  const broker = new MirrorBroker(archive);
  const pool = new BrowserPool({ ...settings, screenshots: false });
  const result: MirrorThumbnailsResult = { made: 0, kept: 0, failed: [] };
  const total = c.queryPages({ offset: 0, limit: 0 }).total;
  let done = 0;
  try {
    for (let offset = 0; offset < total; offset += BATCH) {
      const pages = c.queryPages({ offset, limit: BATCH }).rows;
      const running = new Set<Promise<void>>();
      for (const p of pages) {
        const target = thumbnailPathFor(p.localPath);
        if (have.has(target)) {
          result.kept++;
          opts.onProgress?.(++done, total);
          continue;
        }
        const task = (async () => {
          try {
            const page = await pool.render({
              url: mirrorUrlOf(p.localPath),
              response: await broker.read(p.localPath),
              broker,
              signal: opts.signal,
            });
            await writeArchiveFile(archive.dir, target, page.thumbnail);
            result.made++;
          } catch (e) {
            if (e instanceof RenderAbortedError) throw e;
            result.failed.push({ url: p.url, error: (e as Error).message });
          }
          opts.onProgress?.(++done, total);
        })().finally(() => running.delete(task));
        running.add(task);
        if (running.size >= settings.pages) await Promise.race(running);
      }
      await Promise.all(running);
    }
  } finally {
    await pool.close();
  }
  return result;
}
