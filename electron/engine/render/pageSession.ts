import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import { corsAllows, corsOrigin } from './cors.js';
import { CLICK_LOAD_MORE, SCROLL_STEP, serializeDom } from './inPage.js';
import { NetworkWatch } from './networkWatch.js';
import { PAGE_GUARD } from './pageGuard.js';
import type { RendererMemoryWatch } from './rendererMemory.js';
import { PageMemoryError, RenderAbortedError, type PageResponse, type RenderedPage, type RenderPolicy, type RenderTarget } from './types.js';

export const VIEWPORT = { width: 1280, height: 800 };
/** Thumbnails are the first screenful scaled to a quarter: 320 x 200. */
export const THUMBNAIL_SCALE = 0.25;
export const THUMBNAIL_WIDTH = VIEWPORT.width * THUMBNAIL_SCALE;
export const THUMBNAIL_HEIGHT = VIEWPORT.height * THUMBNAIL_SCALE;

/**
 * The network counts as idle after this long with nothing in flight: long enough for a script to
 * act on a response (render it, ask for the next thing), short enough not to dominate a page's time.
 */
const QUIET_MS = 150;
/** After a scroll or a click, requests it causes start within this long, if at all. */
const GRACE_MS = 50;
/** Scroll steps of one screenful at most: infinite scrolling stops here. */
const MAX_SCROLL_STEPS = 25;
/** "Load more" buttons clicked at most per page. */
const MAX_CLICKS = 3;
/** Time kept back from the page limit for serializing and the thumbnail. */
const CAPTURE_RESERVE_MS = 3_000;
/** Full-page screenshots are cut at this height. */
const MAX_SCREENSHOT_HEIGHT = 16_384;

/** Headers the fulfilled body no longer matches (it is decoded and whole) or that would keep state. */
const DROPPED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie']);

export function fulfilment(r: PageResponse): { status: number; headers: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (!DROPPED_HEADERS.has(k.toLowerCase())) headers[k] = v;
  return { status: r.status, headers, body: r.body };
}

class Deadline {
  private readonly atMs: number;
  constructor(ms: number) {
    this.atMs = Date.now() + ms;
  }
  /** Time left, keeping `reserveMs` back. */
  left(reserveMs = 0): number {
    return Math.max(0, this.atMs - reserveMs - Date.now());
  }
}

/** Rejects with a timeout error if `p` takes longer than `ms` (the page's main thread may hang). */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}

/** What the route handler needs of the render in progress. */
interface Current {
  target: RenderTarget;
  net: NetworkWatch;
  navigations: string[];
  /** Resolves when the page's scripts first try to navigate away. */
  navigated: () => void;
  pageServed: boolean;
  signal: AbortSignal;
}

/**
 * One browser page, reused render after render (a fresh context per page costs more than the page's
 * own load on a small machine). Storage is shared between its renders, as in one visitor's browser.
 * Every request goes through one route handler, which answers the first navigation with the page's
 * own response and everything else through the render's broker; navigations the page's scripts
 * start are refused and reported. Every document runs the page guard first (no WebRTC, no
 * `window.open`); a popup the page still opens (a link or form with a target) is closed as soon as
 * it appears, and its requests are refused, never answered through the render's broker. A slot
 * whose page crashed or whose browser died is not reused.
 */
export class PageSlot {
  private current: Current | null = null;
  private readonly handlers = new Set<Promise<void>>();
  private broken = false;

  private constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly memory: RendererMemoryWatch | null,
  ) {
    page.on('crash', () => (this.broken = true));
  }

  static async open(browser: Browser, memory: RendererMemoryWatch | null): Promise<PageSlot> {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, serviceWorkers: 'block', acceptDownloads: false });
    try {
      await context.addInitScript(PAGE_GUARD);
      const page = await context.newPage();
      context.on('page', (popup) => {
        if (popup !== page) void popup.close().catch(() => {});
      });
      const slot = new PageSlot(context, page, await context.newCDPSession(page), memory);
      await context.route('**/*', (route) => {
        const handled = slot.handle(route).finally(() => slot.handlers.delete(handled));
        slot.handlers.add(handled);
        return handled;
      });
      return slot;
    } catch (e) {
      await context.close().catch(() => {});
      throw e;
    }
  }

  get usable(): boolean {
    return !this.broken && !this.page.isClosed();
  }

  async close(): Promise<void> {
    this.broken = true;
    await this.context.close().catch(() => {});
  }

  private async handle(route: Route): Promise<void> {
    const cur = this.current;
    if (cur === null) {
      await route.abort('aborted').catch(() => {});
      return;
    }
    const req = route.request();
    if (!this.ownRequest(req)) {
      await route.abort('blockedbyclient').catch(() => {});
      return;
    }
    cur.net.started();
    try {
      if (req.isNavigationRequest() && req.frame() === this.page.mainFrame()) {
        if (!cur.pageServed) {
          cur.pageServed = true;
          await route.fulfill(fulfilment(cur.target.response));
        } else {
          cur.navigations.push(req.url());
          cur.navigated();
          await route.abort('aborted');
        }
        return;
      }
      const origin = corsOrigin(req.url(), req.headers());
      const answer = await cur.target.broker.answer({ url: req.url(), method: req.method(), resourceType: req.resourceType(), cors: origin !== null }, cur.signal);
      if (!('response' in answer)) await route.abort('blockedbyclient');
      else if (corsAllows(origin, answer.response)) await route.fulfill(fulfilment(answer.response));
      else await route.abort('accessdenied');
    } catch {
      // The render ended under the request, or the broker gave up on it.
      await route.abort('failed').catch(() => {});
    } finally {
      cur.net.finished();
    }
  }

  /** A request of the slot's own page (any of its frames), not of a popup it opened. */
  private ownRequest(req: Request): boolean {
    try {
      return req.frame().page() === this.page;
    } catch {
      // No frame yet: a new window's first navigation (a popup). Otherwise a worker's request:
      // service workers are blocked, and dedicated workers belong to the page.
      return !req.isNavigationRequest();
    }
  }

  /**
   * Renders one page: loads it, scrolls to the bottom a screenful at a time, clicks "load more"
   * buttons, waits for the network to go quiet after each step, then captures the DOM and a
   * thumbnail. Bounded by the policy's page time limit: when it runs out, what the page shows is
   * captured.
   */
  async render(t: RenderTarget, policy: RenderPolicy): Promise<RenderedPage> {
    if (t.signal.aborted) throw new RenderAbortedError();
    const session = new AbortController();
    // Every request in flight listens to it, and a page may have many.
    setMaxListeners(0, session.signal);
    const abandon = () => session.abort();
    t.signal.addEventListener('abort', abandon, { once: true });
    let navigated = () => {};
    const cur: Current = {
      target: t,
      net: new NetworkWatch(),
      navigations: [],
      navigated: () => navigated(),
      pageServed: false,
      signal: session.signal,
    };
    const navigation = new Promise<void>((resolve) => (navigated = resolve));
    this.current = cur;
    const browser = this.context.browser();
    let onCrash = () => {};
    let onExit = () => {};
    try {
      const failed = new Promise<never>((_, reject) => {
        onCrash = () => {
          const stop = this.memory?.claim();
          reject(stop ? new PageMemoryError(stop.rssMb, stop.capMb) : new Error('the page crashed (out of memory, or the renderer died)'));
        };
        onExit = () => reject(new Error('the browser exited'));
        this.page.once('crash', onCrash);
        browser?.once('disconnected', onExit);
        session.signal.addEventListener('abort', () => reject(new RenderAbortedError()), { once: true });
      });
      failed.catch(() => {});
      return await Promise.race([failed, capture(this.page, this.cdp, cur, policy, navigation)]);
    } catch (e) {
      if (t.signal.aborted) throw new RenderAbortedError();
      this.broken = true;
      throw e;
    } finally {
      t.signal.removeEventListener('abort', abandon);
      this.page.off('crash', onCrash);
      browser?.off('disconnected', onExit);
      this.current = null;
      session.abort();
      // Brokers give up once the signal is aborted; one that doesn't must not hold the page forever.
      await within(Promise.allSettled([...this.handlers]), CAPTURE_RESERVE_MS, 'requests ending').catch(() => {});
      // Unloads the page, so nothing it scheduled runs into the next render.
      if (this.usable) await within(this.page.goto('about:blank'), CAPTURE_RESERVE_MS, 'unloading the page').catch(() => (this.broken = true));
    }
  }
}

async function capture(page: Page, cdp: CDPSession, cur: Current, policy: RenderPolicy, navigation: Promise<void>): Promise<RenderedPage> {
  const deadline = new Deadline(policy.pageTimeoutMs);
  const { net, navigations, signal } = cur;
  let timedOut = false;
  const settle = async () => {
    if (!(await net.idle(QUIET_MS, Math.min(policy.settleMs, deadline.left(CAPTURE_RESERVE_MS)), GRACE_MS, signal))) timedOut = true;
  };
  const step = async <T>(script: string): Promise<T> => within(page.evaluate(script) as Promise<T>, Math.max(1, deadline.left()), 'a script step');
  try {
    // A page that navigates by script while loading never finishes loading: what it showed is kept.
    const loaded = page.goto(cur.target.url, { waitUntil: 'load', timeout: Math.max(1, deadline.left(CAPTURE_RESERVE_MS)) });
    loaded.catch(() => {});
    await Promise.race([loaded, navigation]);
  } catch (e) {
    if (!isTimeout(e)) throw e;
    timedOut = true;
  }
  if (navigations.length === 0) await settle();
  let clicks = 0;
  for (let steps = 0; steps < MAX_SCROLL_STEPS && deadline.left(CAPTURE_RESERVE_MS) > 0; steps++) {
    if (navigations.length > 0) break;
    const bottom = await step<boolean>(SCROLL_STEP);
    await settle();
    if (!bottom) continue;
    if (clicks >= MAX_CLICKS || !(await step<boolean>(CLICK_LOAD_MORE))) break;
    clicks++;
    await settle();
  }
  if (deadline.left(CAPTURE_RESERVE_MS) === 0) timedOut = true;
  const reserve = Math.max(1, Math.max(deadline.left(), CAPTURE_RESERVE_MS));
  const html = await within(page.evaluate(serializeDom(navigations[0] ?? null)) as Promise<string>, reserve, 'serializing the page');
  const thumbnail = await thumbnailOf(cdp, reserve);
  const screenshot = policy.screenshots ? await screenshotOf(page, reserve) : null;
  return { html, navigations, thumbnail, screenshot, timedOut };
}

/** The first screenful scaled down by the browser itself (CDP's clip scale), as PNG. */
async function thumbnailOf(cdp: CDPSession, ms: number): Promise<Buffer> {
  const shot = await within(
    cdp.send('Page.captureScreenshot', {
      format: 'png',
      clip: { x: 0, y: 0, width: VIEWPORT.width, height: VIEWPORT.height, scale: THUMBNAIL_SCALE },
    }),
    ms,
    'the thumbnail',
  );
  return Buffer.from(shot.data, 'base64');
}

async function screenshotOf(page: Page, ms: number): Promise<Buffer> {
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  return page.screenshot({
    type: 'png',
    timeout: ms,
    fullPage: height <= MAX_SCREENSHOT_HEIGHT,
    ...(height > MAX_SCREENSHOT_HEIGHT && { clip: { x: 0, y: 0, width: VIEWPORT.width, height: MAX_SCREENSHOT_HEIGHT } }),
  });
}
