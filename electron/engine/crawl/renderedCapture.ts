import type { RenderSettings } from '../../../shared/job.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { BrowserPool } from '../render/browserPool.js';
import { findBrowser } from '../render/browserPath.js';
import { RenderAbortedError, RenderFailedError, type RenderedCopy } from '../render/types.js';
import type { QueuedRow } from '../store/catalogue.js';
import { screenshotPathFor, thumbnailPathFor, writeArchiveFile } from '../store/thumbnails.js';
import { localPathFor } from '../url/localPath.js';
import { documentKind } from './documents.js';
import { RenderBroker, type BrokerParts } from './renderBroker.js';

export type RenderOutcome = { copy: RenderedCopy } | { failed: string } | 'aborted';

/**
 * Rendered capture for a crawl with `render.enabled`: each HTML page fetched is loaded in the
 * browser pool, its requests answered through the crawl (RenderBroker), and what it showed comes
 * back as the copy to save; its thumbnail (and screenshot) go under `<archive>/thumbnails/` and
 * into the WARC as resource records. Frames and other requisite documents are not rendered on
 * their own: their page renders them.
 */
export class RenderedCapture {
  private readonly broker: RenderBroker;

  private constructor(
    private readonly parts: BrokerParts,
    private readonly pool: BrowserPool,
  ) {
    this.broker = new RenderBroker(parts);
  }

  /** Finds the browser (throws BrowserNotFoundError naming the paths tried); it starts with the first page. */
  static open(settings: RenderSettings, parts: BrokerParts): RenderedCapture {
    const executablePath = findBrowser(settings.browserPath);
    const pool = new BrowserPool({ ...settings, executablePath });
    return new RenderedCapture(parts, pool);
  }

  wants(row: QueuedRow, res: FetchResponse): boolean {
    return row.requisite === 0 && res.status >= 200 && res.status < 300 && documentKind(res.contentType, row.url) === 'html';
  }

  async render(row: QueuedRow, res: FetchResponse, signal: AbortSignal): Promise<RenderOutcome> {
    let page;
    try {
      page = await this.pool.render({
        url: row.url,
        response: { status: res.status, headers: res.headers, body: res.body },
        broker: this.broker.forPage(row),
        signal,
      });
    } catch (e) {
      if (e instanceof RenderAbortedError) return 'aborted';
      if (e instanceof RenderFailedError) return { failed: e.message };
      throw e;
    }
    for (const url of page.navigations) this.broker.discover(row, url);
    const localPath = localPathFor(row.url, res.contentType);
    const { archive, warc } = this.parts;
    const date = new Date();
    await writeArchiveFile(archive.dir, thumbnailPathFor(localPath), page.thumbnail);
    await warc?.writeResource({ uri: `urn:thumbnail:${row.url}`, date, contentType: 'image/png', payload: page.thumbnail });
    if (page.screenshot !== null) {
      await writeArchiveFile(archive.dir, screenshotPathFor(localPath), page.screenshot);
      await warc?.writeResource({ uri: `urn:screenshot:${row.url}`, date, contentType: 'image/png', payload: page.screenshot });
    }
    return { copy: { html: Buffer.from(page.html, 'utf8') } };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
