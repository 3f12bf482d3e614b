import { CAPTURE_PATH_PREFIX, parseCapturePath } from '../../shared/capturePath.js';
import { replayCapture as replayFromSource, type CaptureSource, type ReplayedFile } from '../engine/replay/captureFiles.js';
import type { ArchiveQuery, QueryAnswers, QueryOf } from './archiveQueries.js';
import type { JobService } from './jobService.js';

export { CAPTURE_PATH_PREFIX };

/** Asks one archive a question (through its crawl worker while it runs). */
export type ArchiveAsk = <K extends ArchiveQuery['kind']>(q: QueryOf<K>) => Promise<QueryAnswers[K]>;

export type { ReplayedFile };

/** Serves `@capture/<n>/<mirror path>` of one job: null when the archive holds no payload for that path. */
export type CaptureReplay = (jobId: string, capture: number, localPath: string) => Promise<ReplayedFile | null>;

/** replayCapture (captureFiles.ts) over a job's archive queries. */
export function replayCapture(ask: ArchiveAsk, archiveDir: string, maxBytes: number, capture: number, localPath: string): Promise<ReplayedFile | null> {
  const source: CaptureSource = {
    captureAtPath: async (path, n) => (await ask({ kind: 'captureAtPath', localPath: path, capture: n })) ?? null,
    linkTargets: (urls) => ask({ kind: 'linkTargets', urls }),
  };
  return replayFromSource(source, archiveDir, maxBytes, capture, localPath);
}

/** The capture and mirror path of a request's path segments under `@capture/<n>/`; null for any other. */
export function capturePathOf(segments: readonly string[]): { capture: number; localPath: string } | null {
  return segments[0] === CAPTURE_PATH_PREFIX ? parseCapturePath(segments.join('/')) : null;
}

/** The archive host's replay of earlier captures, over the job service (null before it has started). */
export function captureReplayOf(jobs: () => JobService | null): CaptureReplay {
  return async (jobId, capture, localPath) => {
    const service = jobs();
    if (service === null) return null;
    const { archiveDir, job } = service.get(jobId);
    return replayCapture((q) => service.query(jobId, q), archiveDir, job.fetch.maxResponseBytes, capture, localPath);
  };
}
