import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Frame, Page, Request } from 'playwright-core';
import { exportWacz } from '../export/wacz.js';
import type { BrowserPool } from '../render/browserPool.js';
import { CAPTURE_RESERVE_MS, GRACE_MS, QUIET_MS, scrollThrough, THUMBNAIL_SCALE, VIEWPORT, within } from '../render/capture.js';
import { serializeDom } from '../render/inPage.js';
import { NetworkWatch } from '../render/networkWatch.js';
import { RenderAbortedError } from '../render/types.js';
import { startReplayServer, type ReplayServer } from '../replay/replayServer.js';
import type { Archive } from '../store/archive.js';
import { readMetadata } from '../store/metadata.js';
import { canonicalize } from '../url/canonical.js';
import type { RecordedRequest } from '../render/recordingBroker.js';

/** A page as ReplayWeb.page replayed it: what the analysis compares with the reference. */
export interface ReplayedPage {
  html: string;
  thumbnail: Buffer;
  /** The archived URLs the replayed page asked for, and whether the replay had them. */
  requests: RecordedRequest[];
  /** Where the replayed page went by script (a client-side redirect ReplayWeb.page followed), or null; html and thumbnail are then empty. */
  leftFor: string | null;
}

/**
 * The archived URL a request inside the replay frame stands for: ReplayWeb.page's addresses are
 * …/w/<collection>/[:<hash>/]<timestamp><modifier>_/<url>, the URL scheme-relative (`//host/…`)
 * where the page wrote it so: it then takes the scheme of `pageUrl`.
 */
export function archivedUrlOf(replayUrl: string, pageUrl: string): string | null {
  const m = /\/w\/[^/]+\/(?::[0-9a-f]+\/)?\d*(?:[a-z]{2}_)?\/((?:https?:)?\/\/.*)$/.exec(replayUrl);
  if (!m) return null;
  return m[1]!.startsWith('//') ? `${new URL(pageUrl).protocol}${m[1]}` : m[1]!;
}

const sameUrl = (a: string, b: string) => (canonicalize(a) ?? a) === (canonicalize(b) ?? b);

/**
 * The WACZ replay of one capture as the analysis's second copy: the capture exported to a WACZ in a
 * temporary folder, served with ReplayWeb.page's own files on 127.0.0.1, and each page shown in
 * the pool's browser, in a context of its own that lets ReplayWeb.page's service worker run (the
 * render slots block service workers) and refuses every request to any other origin, so nothing
 * the replay shows comes from the web. Same viewport, scrolling and waits as a render.
 */
export class ReplayCopy {
  private readonly contexts = new Map<Browser, Promise<BrowserContext>>();

  private constructor(
    private readonly server: ReplayServer,
    private readonly dir: string,
  ) {}

  /** `wacz`: a WACZ already exported from the archive to replay instead of exporting the capture anew. */
  static async open(archive: Archive, capture: number, signal: AbortSignal, wacz?: string): Promise<ReplayCopy> {
    const dir = await mkdtemp(path.join(tmpdir(), 'harvest-qa-replay-'));
    try {
      let file = wacz;
      if (file === undefined) {
        file = path.join(dir, 'capture.wacz');
        await exportWacz(archive, file, { metadata: readMetadata(archive.catalogue), capture, signal, noPageText: true });
      }
      return new ReplayCopy(await startReplayServer(file, VIEWPORT), dir);
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      throw e;
    }
  }

  async close(): Promise<void> {
    for (const c of this.contexts.values()) await (await c.catch(() => null))?.close().catch(() => {});
    this.contexts.clear();
    await this.server.close();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Replays one archived page within `timeoutMs` (what it shows then is taken, as a render does). */
  async render(pool: BrowserPool, url: string, timeoutMs: number, settleMs: number, signal: AbortSignal): Promise<ReplayedPage> {
    return pool.use(signal, async (browser) => {
      const context = await this.contextOf(browser);
      const page = await context.newPage();
      const stop = () => void page.close().catch(() => {});
      signal.addEventListener('abort', stop, { once: true });
      try {
        return await this.show(context, page, url, Date.now() + timeoutMs, settleMs, signal);
      } catch (e) {
        if (signal.aborted) throw new RenderAbortedError();
        throw e;
      } finally {
        signal.removeEventListener('abort', stop);
        await page.close().catch(() => {});
      }
    });
  }

  private contextOf(browser: Browser): Promise<BrowserContext> {
    let context = this.contexts.get(browser);
    if (context === undefined) {
      const origin = this.server.origin;
      context = (async () => {
        // The browser's own proxy leads nowhere; this context's is the replay server, which answers only
        // for itself, so the service worker's requests (which no route sees) cannot leave either.
        const c = await browser.newContext({
          viewport: VIEWPORT,
          deviceScaleFactor: 1,
          serviceWorkers: 'allow',
          acceptDownloads: false,
          proxy: { server: origin, bypass: '<-loopback>' },
        });
        await c.route((u) => u.origin !== origin, (route) => route.abort('blockedbyclient'));
        return c;
      })();
      this.contexts.set(browser, context);
      browser.once('disconnected', () => this.contexts.delete(browser));
    }
    return context;
  }

  private async show(context: BrowserContext, page: Page, url: string, deadline: number, settleMs: number, signal: AbortSignal): Promise<ReplayedPage> {
    const left = (reserve = 0) => Math.max(1, deadline - reserve - Date.now());
    const net = new NetworkWatch();
    const requests: RecordedRequest[] = [];
    let frame: Frame | null = null;
    const ended = (r: Request, ok: boolean) => {
      net.finished();
      const archived = archivedUrlOf(r.url(), url);
      // Everything under ReplayWeb.page's replay prefix is the replayed page's, save its own document.
      if (archived !== null && !(r.isNavigationRequest() && sameUrl(archived, url))) requests.push({ url: archived, type: r.resourceType(), ok });
    };
    page.on('request', () => net.started());
    page.on('requestfinished', (r) => void r.response().then((res) => ended(r, res !== null && res.status() < 400), () => ended(r, false)));
    page.on('requestfailed', (r) => ended(r, false));
    await page.goto(this.server.embedUrl(url), { waitUntil: 'load', timeout: left(CAPTURE_RESERVE_MS) });
    // ReplayWeb.page loads the WACZ's index, then opens the page in a frame of its own frame.
    while (frame === null) {
      if (signal.aborted) throw new RenderAbortedError();
      frame = page.frames().find((f) => archivedUrlOf(f.url(), url) !== null) ?? null;
      if (frame !== null) break;
      if (left(CAPTURE_RESERVE_MS) <= 1) throw new Error(`the replay showed no page within the time limit (frames: ${page.frames().map((f) => f.url()).join(', ')})`);
      await page.waitForTimeout(100);
    }
    await frame.waitForLoadState('load', { timeout: left(CAPTURE_RESERVE_MS) }).catch(() => {});
    const settle = () => net.idle(QUIET_MS, Math.min(settleMs, left(CAPTURE_RESERVE_MS)), GRACE_MS, signal);
    const step = <T>(script: string): Promise<T> => within(frame.evaluate(script) as Promise<T>, left(), 'a script step');
    const gone = (): string | null => {
      const shown = archivedUrlOf(frame.url(), url);
      return shown !== null && !sameUrl(shown, url) ? shown : null;
    };
    let html: string;
    try {
      await settle();
      await scrollThrough(step, settle, () => left(CAPTURE_RESERVE_MS) > 1);
      // serializeDom scrolls the page back to the top, ready for the picture.
      html = await within(frame.evaluate(serializeDom(null)) as Promise<string>, Math.max(left(), CAPTURE_RESERVE_MS), 'serializing the replayed page');
    } catch (e) {
      // A page that leaves by script (a meta refresh, location.replace) takes the replay with it.
      await frame.waitForLoadState('load', { timeout: CAPTURE_RESERVE_MS }).catch(() => {});
      const leftFor = gone();
      if (leftFor === null) throw e;
      return { html: '', thumbnail: Buffer.alloc(0), requests, leftFor };
    }
    const reserve = Math.max(left(), CAPTURE_RESERVE_MS);
    const cdp = await context.newCDPSession(page);
    try {
      const shot = await within(
        cdp.send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: VIEWPORT.width, height: VIEWPORT.height, scale: THUMBNAIL_SCALE } }),
        reserve,
        'the replayed page picture',
      );
      return { html, thumbnail: Buffer.from(shot.data, 'base64'), requests, leftFor: gone() };
    } finally {
      await cdp.detach().catch(() => {});
    }
  }
}
