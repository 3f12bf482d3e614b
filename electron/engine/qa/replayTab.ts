import type { BrowserContext, CDPSession, Frame, Page, Request } from 'playwright-core';
import { CAPTURE_RESERVE_MS, GRACE_MS, QUIET_MS, scrollThrough, THUMBNAIL_SCALE, VIEWPORT, within } from '../render/capture.js';
import { serializeDom } from '../render/inPage.js';
import { NetworkWatch } from '../render/networkWatch.js';
import { RenderAbortedError } from '../render/types.js';
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
 * Pages one tab replays before it is replaced: ReplayWeb.page keeps a little of each page it
 * showed (its frame's history), so a tab's memory stays bounded whatever the archive's size.
 */
export const TAB_PAGES = 50;

/** Shows another page in the ReplayWeb.page already loaded: it changes only its inner frame. */
const showUrl = (url: string) => `document.querySelector('replay-web-page').setAttribute('url', ${JSON.stringify(url)})`;

/** A reused tab's frame went to another archived page than the one asked for: a fresh tab shows it. */
export class ReplayTabMismatch extends Error {}

/**
 * One browser tab with ReplayWeb.page loaded, showing archived pages one after another. The first
 * page loads ReplayWeb.page (its scripts, service worker and the WACZ's index: some 1.4 s of a
 * core per page when every page had a tab of its own); each later page is shown by changing the
 * replay element's `url`, which loads only the archived page in its frame. A page is taken once
 * its frame has navigated to that very page; what another page does meanwhile (its requests, a
 * late navigation) is not counted.
 */
export class ReplayTab {
  /** Pages this tab has shown. */
  private shown = 0;

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly embedUrl: (url: string) => string,
  ) {}

  static async open(context: BrowserContext, embedUrl: (url: string) => string): Promise<ReplayTab> {
    const page = await context.newPage();
    try {
      return new ReplayTab(page, await context.newCDPSession(page), embedUrl);
    } catch (e) {
      await page.close().catch(() => {});
      throw e;
    }
  }

  /** Whether the tab may show another page. */
  get reusable(): boolean {
    return !this.page.isClosed() && this.shown > 0 && this.shown < TAB_PAGES;
  }

  async close(): Promise<void> {
    await this.page.close().catch(() => {});
  }

  /** Replays `url` until `deadline` (what it shows then is taken, as a render does). */
  async show(url: string, deadline: number, settleMs: number, signal: AbortSignal): Promise<ReplayedPage> {
    const { page } = this;
    const left = (reserve = 0) => Math.max(1, deadline - reserve - Date.now());
    const net = new NetworkWatch();
    const requests: RecordedRequest[] = [];
    // Only this page's requests count: one the page shown before started may end meanwhile.
    const ours = new Set<Request>();
    const started = (r: Request) => {
      ours.add(r);
      net.started();
    };
    const ended = (r: Request, ok: boolean) => {
      if (!ours.delete(r)) return;
      net.finished();
      const archived = archivedUrlOf(r.url(), url);
      // Everything under ReplayWeb.page's replay prefix is the replayed page's, save its own document.
      if (archived !== null && !(r.isNavigationRequest() && sameUrl(archived, url))) requests.push({ url: archived, type: r.resourceType(), ok });
    };
    const finished = (r: Request) => void r.response().then((res) => ended(r, res !== null && res.status() < 400), () => ended(r, false));
    const failed = (r: Request) => ended(r, false);
    page.on('request', started);
    page.on('requestfinished', finished);
    page.on('requestfailed', failed);
    try {
      const frame = await this.navigate(url, left(CAPTURE_RESERVE_MS), signal);
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
        // A page that leaves by script (a meta refresh, location.replace) takes the replay with it:
        // its frame commits the new address a moment after the page's scripts lost their context.
        const leftFor =
          gone() ??
          (await page.waitForEvent('framenavigated', { predicate: (f) => f === frame && gone() !== null, timeout: CAPTURE_RESERVE_MS }).then(
            () => gone(),
            () => null,
          ));
        if (leftFor === null) throw e;
        return { html: '', thumbnail: Buffer.alloc(0), requests, leftFor };
      }
      const shot = await within(
        this.cdp.send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: VIEWPORT.width, height: VIEWPORT.height, scale: THUMBNAIL_SCALE } }),
        Math.max(left(), CAPTURE_RESERVE_MS),
        'the replayed page picture',
      );
      return { html, thumbnail: Buffer.from(shot.data, 'base64'), requests, leftFor: gone() };
    } finally {
      page.off('request', started);
      page.off('requestfinished', finished);
      page.off('requestfailed', failed);
    }
  }

  /**
   * Brings `url` into the replay frame and resolves with that frame once it has navigated there:
   * a fresh tab loads ReplayWeb.page for it (its first archived page is the one asked for, or where
   * the archive sends it), a used one changes the replay element's `url`.
   */
  private async navigate(url: string, ms: number, signal: AbortSignal): Promise<Frame> {
    const { page } = this;
    const fresh = this.shown === 0;
    let onNavigated = (_f: Frame) => {};
    let onAbort = () => {};
    let timer: NodeJS.Timeout | undefined;
    const reached = new Promise<Frame>((resolve, reject) => {
      onNavigated = (f) => {
        const archived = archivedUrlOf(f.url(), url);
        if (archived === null) return;
        if (fresh || sameUrl(archived, url)) resolve(f);
        else reject(new ReplayTabMismatch(`the replay frame went to ${archived}, not ${url}`));
      };
      onAbort = () => reject(new RenderAbortedError());
      timer = setTimeout(() => reject(new Error(`the replay showed no page within the time limit (frames: ${page.frames().map((f) => f.url()).join(', ')})`)), ms);
    });
    reached.catch(() => {});
    page.on('framenavigated', onNavigated);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal.aborted) throw new RenderAbortedError();
      if (fresh) await page.goto(this.embedUrl(url), { waitUntil: 'load', timeout: ms });
      else await within(page.evaluate(showUrl(url)), ms, 'asking the replay for the page');
      const frame = await reached;
      this.shown++;
      return frame;
    } finally {
      clearTimeout(timer);
      page.off('framenavigated', onNavigated);
      signal.removeEventListener('abort', onAbort);
    }
  }
}
