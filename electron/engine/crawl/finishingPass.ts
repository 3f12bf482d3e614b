import type { Archive } from '../store/archive.js';
import { TextIndex } from '../store/textIndex.js';
import type { ArchivingParts } from './archivingParts.js';
import { finalizeMirror, type FinalizeProgress } from './finalize.js';
import { indexMissing } from './textIndexing.js';

/**
 * What a crawl does once every URL has an outcome: the index made complete, then the mirror's
 * rewrite pass beside the index's compaction. Throws the first failure.
 */
export async function finishArchive(archive: Archive, parts: ArchivingParts, onProgress: FinalizeProgress): Promise<void> {
  const { archiver, documents, textIndex } = parts;
  await archiver.textRead();
  // Pages saved in an earlier run that a kill kept out of the index (their text was still queued).
  await indexMissing(archive, textIndex, documents);
  // The index is complete: compacted in a document worker while the ticks go on (0.5 s or more
  // of one thread on the 5,000-page bench site, long enough to stall the progress events), and
  // beside the rewrite pass, which never reads it.
  textIndex.close();
  const finished = await Promise.allSettled([
    finalizeMirror(archive, documents, onProgress),
    documents.compactTextIndex(TextIndex.fileIn(archive.dir)),
  ]);
  for (const r of finished) if (r.status === 'rejected') throw r.reason;
}
