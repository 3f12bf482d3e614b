import type { RenderSettings } from '../../../shared/job.js';
import { PageRenderer, type RenderOutcome } from '../crawl/renderedCapture.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { canonicalize } from '../url/canonical.js';
import type { WarcWriter } from '../warc/writer.js';
import type { BatchResult } from './batchCommit.js';
import type { BatchRendering, BatchTools } from './batchRun.js';
import type { LeasedUrl } from './coordination.js';
import { PageBroker, RecentDocuments, type BatchAnswers, type PageBrokerParts } from './pageBroker.js';

/**
 * Rendered capture in a cluster worker: the local crawl's PageRenderer (one browser per worker,
 * `render.pages` pages at once), each page's requests answered by a PageBroker through the worker's
 * own fetcher, gates and WARC. Thumbnails go under `<store>/thumbnails/` as under a local archive
 * folder. Loaded by the worker only when the job renders, so playwright-core is never loaded otherwise.
 */
export class ClusterRendering implements BatchRendering {
  /** Per batch, what its pages were answered (dropped with the batch's result). */
  private readonly answers = new WeakMap<BatchResult, BatchAnswers>();

  private constructor(
    private readonly renderer: PageRenderer,
    private readonly parts: PageBrokerParts,
  ) {}

  /** Throws BrowserNotFoundError naming the paths tried; the browser starts with the first page. */
  static open(settings: RenderSettings, warc: WarcWriter | null, parts: Omit<PageBrokerParts, 'recent'>): ClusterRendering {
    return new ClusterRendering(PageRenderer.open(settings, { dir: parts.store, warc }), { ...parts, recent: new RecentDocuments() });
  }

  get store(): string {
    return this.parts.store;
  }

  wants(u: LeasedUrl, res: FetchResponse): boolean {
    return this.renderer.wants(u, res);
  }

  async render(t: BatchTools, u: LeasedUrl, res: FetchResponse, result: BatchResult): Promise<RenderOutcome> {
    let answers = this.answers.get(result);
    if (answers === undefined) this.answers.set(result, (answers = new Map()));
    const outcome = await this.renderer.render(u.url, res, new PageBroker(t, this.parts, u, result, answers), t.signal);
    if (typeof outcome !== 'object' || !('copy' in outcome)) return outcome;
    // Navigations the page's scripts started: queued as links of the page, as the local crawl does.
    for (const url of outcome.navigations) {
      const canonical = canonicalize(url);
      if (canonical === null) continue;
      result.discoveries.push(
        t.admission.decide({
          url: canonical,
          parentId: u.id,
          parentDepth: u.depth,
          sameDepth: false,
          via: 'script-navigation',
          requisite: false,
          parentInScope: t.admission.scope.inScope(u.url),
          typeHint: 'html',
          redirectHops: 0,
        }),
      );
    }
    return outcome;
  }

  close(): Promise<void> {
    return this.renderer.close();
  }
}
