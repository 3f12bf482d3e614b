import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, CDPSession, Frame, Page, Request, Route } from 'playwright-core';
import { capture, CAPTURE_RESERVE_MS, VIEWPORT, within, type Current } from './capture.js';
import { corsAllows, corsOrigin } from './cors.js';
import { NetworkWatch } from './networkWatch.js';
import { PAGE_GUARD } from './pageGuard.js';
import { TIMER_WATCH } from './redirectTimers.js';
import type { RendererMemoryWatch } from './rendererMemory.js';
import { PageMemoryError, RenderAbortedError, type PageResponse, type RenderedPage, type RenderPolicy, type RenderTarget } from './types.js';

/** Headers the fulfilled body no longer matches (it is decoded and whole) or that would keep state. */
const DROPPED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie']);

export function fulfilment(r: PageResponse): { status: number; headers: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (!DROPPED_HEADERS.has(k.toLowerCase())) headers[k] = v;
  return { status: r.status, headers, body: r.body };
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
/**
 * Renders one slot does before its context is closed and a fresh one opened: Playwright keeps an
 * object for every request, response and route of a page that stays open (up to 10,000 of each
 * kind), so a slot kept for a whole analysis grew the process by some 450 MiB over its first 190
 * pages; a fresh context every so often frees them, for the price of one context's start.
 */
export const SLOT_RENDERS = 20;

export class PageSlot {
  private current: Current | null = null;
  private readonly handlers = new Set<Promise<void>>();
  private broken = false;
  private renders = 0;

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
      await context.addInitScript(TIMER_WATCH);
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
    return !this.broken && !this.page.isClosed() && this.renders < SLOT_RENDERS;
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
    this.renders++;
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
      routes: [],
      navigated: () => navigated(),
      pageServed: false,
      signal: session.signal,
    };
    const navigation = new Promise<void>((resolve) => (navigated = resolve));
    this.current = cur;
    const browser = this.context.browser();
    let onCrash = () => {};
    let onExit = () => {};
    const onNavigated = (frame: Frame) => {
      if (frame === this.page.mainFrame()) noteRoute(cur, frame.url());
    };
    this.page.on('framenavigated', onNavigated);
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
      this.page.off('framenavigated', onNavigated);
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


/**
 * Notes an address the page's main frame reached other than the page's own (its fragment aside):
 * with no document loaded (navigations are refused), that is a route a script set through history.
 */
function noteRoute(cur: Current, url: string): void {
  const bare = (u: string) => {
    const parsed = URL.parse(u);
    if (parsed === null) return null;
    parsed.hash = '';
    return parsed.href;
  };
  const route = bare(url);
  if (route === null || !/^https?:/.test(route) || route === bare(cur.target.url) || cur.routes.includes(route)) return;
  cur.routes.push(route);
}
