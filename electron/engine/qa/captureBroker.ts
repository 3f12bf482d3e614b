import { finalTarget } from '../crawl/documents.js';
import { answerFromFiles, type MirrorBroker } from '../render/mirrorBroker.js';
import type { BrokerAnswer, PageRequest, PageResponse, RequestBroker } from '../render/types.js';
import { replayCapture, type CaptureSource } from '../replay/captureFiles.js';
import type { Archive } from '../store/archive.js';

/** Where the analysis reads a page's copy and answers its requests. */
export interface CopySource extends RequestBroker {
  read(localPath: string): Promise<PageResponse>;
}

/**
 * The copy of an earlier capture: each mirror file as that capture had it (the viewer's
 * `@capture/<n>/`), from its WARC record or the nearest capture's, its references rewritten alike;
 * a path no capture has a payload for is the mirror's file.
 */
export class CaptureBroker implements CopySource {
  private readonly source: CaptureSource;

  constructor(
    private readonly archive: Archive,
    private readonly capture: number,
    private readonly mirror: MirrorBroker,
  ) {
    const c = archive.catalogue;
    this.source = {
      captureAtPath: async (localPath, n) => c.captureAtPath(localPath, n) ?? null,
      linkTargets: async (urls) =>
        urls.map((url) => {
          const target = url === null ? undefined : c.lookup(url);
          return target ? finalTarget(target) : null;
        }),
    };
  }

  answer(req: PageRequest): Promise<BrokerAnswer> {
    return answerFromFiles(req, (file) => this.read(file), 'not in the capture');
  }

  async read(localPath: string): Promise<PageResponse> {
    const replayed = await replayCapture(this.source, this.archive.dir, this.archive.job.fetch.maxResponseBytes, this.capture, localPath);
    if (replayed === null) return this.mirror.read(localPath);
    return { status: 200, headers: { 'content-type': replayed.contentType }, body: replayed.body };
  }
}
