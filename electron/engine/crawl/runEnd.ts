import type { CrawlState } from '../../../shared/crawl.js';
import type { Fetcher } from '../fetch/fetcher.js';
import type { Archive } from '../store/archive.js';
import { STATE_MESSAGE } from '../store/stats.js';
import type { ArchivingParts } from './archivingParts.js';
import { writeEntryPage } from './finalize.js';
import type { RenderedCapture } from './renderedCapture.js';

/**
 * Saves how a run ended: the pending payload captures, its time, state and message, and the
 * capture run's end, in one transaction; a run that did not finish gets an entry page for what it has.
 */
export async function saveRunEnd(archive: Archive, parts: ArchivingParts | null, final: CrawlState, elapsedMs: number, message: string): Promise<void> {
  const c = archive.catalogue;
  c.transaction(() => {
    parts?.archiver.saveCaptures();
    c.setMeta('duration_ms', String(elapsedMs));
    c.setMeta('state', final);
    c.setMeta(STATE_MESSAGE, message);
    const finishedAt = final === 'finished' ? new Date() : null;
    if (finishedAt !== null) c.setMeta('finished_at', finishedAt.toISOString());
    c.endCaptureRun(final, elapsedMs, finishedAt);
  });
  if (final !== 'finished') await writeEntryPage(archive);
}

/**
 * Closes what a run opened, in order: the browser and connections first, then the text still being
 * read and the index, the document workers, and the WARC writer last. Text, index or WARC left
 * unfinished is passed to `failed` and makes it return false, and closing goes on; the connections'
 * own close failing costs nothing.
 */
export async function closeRun(
  opened: { rendering: RenderedCapture | null; fetcher: Fetcher; parts: ArchivingParts | null },
  failed: (e: unknown) => void,
): Promise<boolean> {
  const { parts } = opened;
  let ok = true;
  await opened.rendering?.close();
  await opened.fetcher.close().catch(() => {});
  for (const finish of [() => parts?.archiver.textRead(), () => parts?.textIndex.close()]) {
    try {
      await finish();
    } catch (e) {
      failed(e);
      ok = false;
    }
  }
  await parts?.documents.close();
  await parts?.warc?.close().catch((e: unknown) => {
    failed(e);
    ok = false;
  });
  return ok;
}
