import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { OPEN_SUFFIX } from '../warc/fileNames.js';
import { ExportUsageError } from './errors.js';

export interface FinishedWarc {
  name: string;
  path: string;
  bytes: number;
}

/**
 * The archive's finished WARC files in creation order. A file still named `.open` belongs to a crawl
 * that is running or was interrupted and may end in a torn record, so the export is refused until a
 * resume has repaired and finished it.
 */
export async function finishedWarcFiles(warcDir: string): Promise<FinishedWarc[]> {
  let entries: string[];
  try {
    entries = await readdir(warcDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') entries = [];
    else throw e;
  }
  const open = entries.filter((e) => e.endsWith(`.warc.gz${OPEN_SUFFIX}`));
  if (open.length > 0) {
    throw new ExportUsageError(
      `the archive has an unfinished WARC file (${open[0]}): its crawl is running or was interrupted, and its last record may be torn. ` +
        `Run 'harvest resume' on it (Ctrl-C pauses and finishes the file), then export again`,
    );
  }
  const names = entries.filter((e) => e.endsWith('.warc.gz')).sort();
  if (names.length === 0) throw new ExportUsageError('the archive has no WARC files (was it crawled with --no-warc?)');
  return Promise.all(
    names.map(async (name) => {
      const p = path.join(warcDir, name);
      return { name, path: p, bytes: (await stat(p)).size };
    }),
  );
}
