import type { CrawlEvent } from '../../../shared/crawl.js';
import { HARVEST_VERSION, userAgentFor } from '../../../shared/job.js';
import type { FocusPolicy } from '../focus/focusPolicy.js';
import type { Archive } from '../store/archive.js';
import { readMetadata } from '../store/metadata.js';
import { TextIndex } from '../store/textIndex.js';
import { operatorInfo } from '../warc/warcinfo.js';
import { WarcWriter } from '../warc/writer.js';
import { DocumentPool } from './documentPool.js';
import type { Frontier } from './frontier.js';
import type { ProgressMeter } from './progress.js';
import { ResponseArchiver } from './responseArchiver.js';

/** Payload digests the WARC writer keeps in memory (some 400 bytes each; its default is 50,000). */
const REMEMBERED_DIGESTS = 4_096;

/** What a run writes through: document workers, the text index, the WARC writer, and the archiver over them. */
export interface ArchivingParts {
  documents: DocumentPool;
  textIndex: TextIndex;
  warc: WarcWriter | null;
  archiver: ResponseArchiver;
}

/** Opens a run's writers; if one fails, those already open are closed (their threads would keep the process alive). */
export async function openArchiving(
  archive: Archive,
  p: { frontier: Frontier; meter: ProgressMeter; emit: (e: CrawlEvent) => void; focus: FocusPolicy | null },
): Promise<ArchivingParts> {
  const { job, catalogue: c } = archive;
  const textIndexFile = TextIndex.fileIn(archive.dir);
  const documents = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir, template: job.template, textIndexFile });
  let textIndex: TextIndex | null = null;
  let warc: WarcWriter | null = null;
  try {
    // Not waited for: the first requests go out while the worker loads (a failed start fails the first document).
    textIndex = TextIndex.openWritable(textIndexFile);
    let archiver: ResponseArchiver | null = null;
    if (job.warc.enabled) {
      warc = await WarcWriter.open({
        dir: archive.warcDir,
        prefix: 'harvest',
        software: `Harvest/${HARVEST_VERSION}`,
        maxFileBytes: job.warc.maxFileBytes,
        // Payloads recorded in earlier runs become revisits too.
        seenDigest: (digest) => c.captureByDigest(digest),
        // The catalogue answers for every digest, so the writer's own memory only saves a lookup for recent ones.
        maxRememberedDigests: REMEMBERED_DIGESTS,
        onOriginal: (digest, capture) => archiver!.capturedOriginal(digest, capture),
        checkpoints: { get: (file) => c.warcCheckpoint(file), set: (file, end) => c.setWarcCheckpoint(file, end) },
        info: {
          isPartOf: job.name,
          robots: job.politeness.respectRobots ? 'obey' : 'ignore',
          'http-header-user-agent': userAgentFor(job),
          ...operatorInfo(job, readMetadata(c)),
        },
      });
    }
    archiver = new ResponseArchiver({
      job,
      catalogue: c,
      frontier: p.frontier,
      meter: p.meter,
      documents,
      warc,
      warcDir: archive.warcDir,
      emit: p.emit,
      focus: p.focus,
    });
    return { documents, textIndex, warc, archiver };
  } catch (e) {
    await closeQuietly({ documents, textIndex, warc });
    throw e;
  }
}

/** Closes what was opened, ignoring the WARC writer's own failure (the caller's error is the one to report). */
export async function closeQuietly(parts: { documents: DocumentPool; textIndex: TextIndex | null; warc: WarcWriter | null }): Promise<void> {
  await parts.documents.close();
  parts.textIndex?.close();
  await parts.warc?.close().catch(() => {});
}
