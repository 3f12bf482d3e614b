import { readFile } from 'node:fs/promises';
import mime from 'mime-types';
import type { RenderSettings } from '../../../shared/job.js';
import type { Archive } from '../store/archive.js';
import { thumbnailPathFor, thumbnailsIn, writeArchiveFile } from '../store/thumbnails.js';
import { BrowserPool } from './browserPool.js';
import { RenderAbortedError, type BrokerAnswer, type PageRequest, type RequestBroker } from './types.js';

/**
 * The origin a mirror is shown under while its thumbnails are made: a name that can never resolve
 * (RFC 6761 .invalid), so the offline copy's relative links stay inside it and nothing else loads.
 */
const MIRROR_ORIGIN = 'http://mirror.harvest.invalid';

/** Pages of the catalogue read at once. */
const BATCH = 256;

export interface MirrorThumbnailsResult {
  made: number;
  /** Pages that already had one. */
  kept: number;
  failed: { url: string; error: string }[];
}

/** Answers only from the mirror's files; anything else (the live web) is refused. */
class MirrorBroker implements RequestBroker {
  constructor(private readonly archive: Archive) {}

  async answer(req: PageRequest): Promise<BrokerAnswer> {
    const file = mirrorFileOf(req.url);
    if (req.method !== 'GET' || file === null) return { refused: 'outside the offline copy' };
    try {
      return { response: await this.read(file) };
    } catch {
      return { refused: 'not in the offline copy' };
    }
  }

  async read(localPath: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const body = await readFile(this.archive.mirror.absolutePath(localPath));
    return { status: 200, headers: { 'content-type': mime.contentType(localPath.split('/').pop() ?? '') || 'application/octet-stream' }, body };
  }
}

function mirrorFileOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== MIRROR_ORIGIN) return null;
  const file = decodeURIComponent(u.pathname.slice(1));
  return file === '' || file.endsWith('/') ? `${file}index.html` : file;
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
              url: `${MIRROR_ORIGIN}/${p.localPath.split('/').map(encodeURIComponent).join('/')}`,
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
