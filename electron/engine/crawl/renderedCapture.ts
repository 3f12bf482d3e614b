import type { RenderSettings } from '../../../shared/job.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { BrowserPool } from '../render/browserPool.js';
import { findBrowser } from '../render/browserPath.js';
import { RenderAbortedError, RenderFailedError, type RenderedCopy, type RequestBroker } from '../render/types.js';
import type { QueuedRow } from '../store/catalogue.js';
import { screenshotPathFor, thumbnailPathFor, writeArchiveFile } from '../store/thumbnails.js';
import { localPathFor } from '../url/localPath.js';
import { renderResources, renderSeen, writeCrawlRender } from '../render/crawlRender.js';
import { RecordingBroker } from '../render/recordingBroker.js';
import { visibleText } from '../render/renderedText.js';
import type { WarcWriter } from '../warc/writer.js';
import { documentKind } from './documents.js';
import { RenderBroker, type BrokerParts } from './renderBroker.js';

/** `navigations`: where the page's scripts took it or tried to (client-side redirects, then history routes), to queue as its links. */
export type RenderOutcome = { copy: RenderedCopy; navigations: string[] } | { failed: string } | 'aborted';

/** Where a renderer's pictures go: `<dir>/thumbnails/` (an archive folder, or a cluster's store) and the WARC. */
export interface RenderOutput {
  dir: string;
  warc: WarcWriter | null;
  /**
   * The capture being crawled, for an archive folder: each page's visible text and requests are then
   * kept beside its thumbnail too (render/crawlRender.ts), for the page analysis to compare the copies
   * with. Without it (a cluster worker) they go into the WARC alone, which `harvest import` reads.
   */
  capture?: () => number;
}

/**
 * The browser side of rendered capture, shared by the local crawl and cluster workers: the pool of
 * pages, the rule for which responses render, and the thumbnail (and screenshot) of each page, under
 * `<dir>/thumbnails/` and in the WARC as resource records. Who answers the page's requests is the
 * caller's (a RequestBroker per page).
 */
export class PageRenderer {
  private constructor(
    private readonly out: RenderOutput,
    private readonly pool: BrowserPool,
  ) {}

  /** Finds the browser (throws BrowserNotFoundError naming the paths tried); it starts with the first page. */
  static open(settings: RenderSettings, out: RenderOutput): PageRenderer {
    const executablePath = findBrowser(settings.browserPath);
    return new PageRenderer(out, new BrowserPool({ ...settings, executablePath }));
  }

  /** Frames and other requisite documents are not rendered on their own: their page renders them. */
  wants(page: { url: string; requisite: boolean | number }, res: FetchResponse): boolean {
    return !page.requisite && res.status >= 200 && res.status < 300 && documentKind(res.contentType, page.url) === 'html';
  }

  async render(url: string, res: FetchResponse, broker: RequestBroker, signal: AbortSignal): Promise<RenderOutcome> {
    let page;
    const recording = this.out.capture === undefined && this.out.warc === null ? null : new RecordingBroker(broker);
    try {
      page = await this.pool.render({ url, response: { status: res.status, headers: res.headers, body: res.body }, broker: recording ?? broker, signal });
    } catch (e) {
      if (e instanceof RenderAbortedError) return 'aborted';
      if (e instanceof RenderFailedError) return { failed: e.message };
      throw e;
    }
    const localPath = localPathFor(url, res.contentType);
    const { dir, warc } = this.out;
    const date = new Date();
    await writeArchiveFile(dir, thumbnailPathFor(localPath), page.thumbnail);
    await warc?.writeResource({ uri: `urn:thumbnail:${url}`, date, contentType: 'image/png', payload: page.thumbnail });
    if (page.screenshot !== null) {
      await writeArchiveFile(dir, screenshotPathFor(localPath), page.screenshot);
      await warc?.writeResource({ uri: `urn:screenshot:${url}`, date, contentType: 'image/png', payload: page.screenshot });
    }
    if (recording !== null) {
      const seen = renderSeen(url, visibleText(page.html), page.thumbnail, recording.requests);
      if (this.out.capture !== undefined) await writeCrawlRender(dir, localPath, this.out.capture(), seen);
      for (const r of renderResources(seen)) await warc?.writeResource({ ...r, date });
    }
    return { copy: { html: Buffer.from(page.html, 'utf8') }, navigations: [...page.navigations, ...page.routes] };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * Rendered capture for a local crawl with `render.enabled`: each HTML page fetched is loaded in the
 * browser pool, its requests answered through the crawl (RenderBroker), and what it showed comes
 * back as the copy to save; its thumbnail (and screenshot) go under `<archive>/thumbnails/` and
 * into the WARC as resource records.
 */
export class RenderedCapture {
  private readonly broker: RenderBroker;

  private constructor(
    parts: BrokerParts,
    private readonly renderer: PageRenderer,
  ) {
    this.broker = new RenderBroker(parts);
  }

  /** Finds the browser (throws BrowserNotFoundError naming the paths tried); it starts with the first page. */
  static open(settings: RenderSettings, parts: BrokerParts): RenderedCapture {
    const capture = () => parts.archive.catalogue.currentCapture();
    return new RenderedCapture(parts, PageRenderer.open(settings, { dir: parts.archive.dir, warc: parts.warc, capture }));
  }

  wants(row: QueuedRow, res: FetchResponse): boolean {
    return this.renderer.wants(row, res);
  }

  async render(row: QueuedRow, res: FetchResponse, signal: AbortSignal): Promise<RenderOutcome> {
    const outcome = await this.renderer.render(row.url, res, this.broker.forPage(row), signal);
    if (typeof outcome === 'object' && 'copy' in outcome) for (const url of outcome.navigations) this.broker.discover(row, url);
    return outcome;
  }

  close(): Promise<void> {
    return this.renderer.close();
  }
}
