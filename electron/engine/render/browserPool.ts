import { chromium, type Browser } from 'playwright-core';
import { browserArgs, sandboxAllowed } from './browserArgs.js';
import { PageSlot } from './pageSession.js';
import { RENDERER_BASE_MB, RendererMemoryWatch } from './rendererMemory.js';
import { PageMemoryError, RenderAbortedError, RenderFailedError, type RenderedPage, type RenderPolicy, type RenderTarget } from './types.js';

export interface BrowserPoolOptions extends RenderPolicy {
  executablePath: string;
  /** Pages rendering at once. */
  pages: number;
  /** V8 heap cap of each renderer process, in MB; its resident memory may hold RENDERER_BASE_MB more. */
  maxPageHeapMb: number;
}

/** How long the browser may take to start. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * A headless browser shared by a bounded number of page renders. The browser starts with the first
 * render; if it dies it is started again for the next. A render that fails (a crash, the browser
 * exiting, a page that stops answering) is tried once more before it is reported as failed; a page
 * stopped for its memory is not.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  /** The browser `browser` resolved to, once it has. */
  private live: Browser | null = null;
  private free: number;
  private readonly waiting: (() => void)[] = [];
  /** Pages of the live browser not rendering right now. */
  private idle: PageSlot[] = [];
  private closed = false;
  /** The memory watch of each browser started (none where process memory can't be read). */
  private readonly memory = new Map<Browser, RendererMemoryWatch>();
  /** Times the browser was started (a restart counts). */
  launches = 0;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.free = Math.max(1, opts.pages);
  }

  async render(target: RenderTarget): Promise<RenderedPage> {
    await this.acquire(target.signal);
    try {
      let firstError: Error | null = null;
      for (let attempt = 1; ; attempt++) {
        const browser = await this.started();
        let slot: PageSlot | null = null;
        try {
          slot = this.idle.pop() ?? (await PageSlot.open(browser, this.memory.get(browser) ?? null));
          const page = await slot.render(target, this.opts);
          if (slot.usable && this.live === browser) this.idle.push(slot);
          else await slot.close();
          return page;
        } catch (e) {
          if (slot !== null && !slot.usable) await slot.close();
          else if (slot !== null) this.idle.push(slot);
          if (e instanceof RenderAbortedError || target.signal.aborted) throw new RenderAbortedError();
          if (e instanceof PageMemoryError) throw e;
          const error = e instanceof Error ? e : new Error(String(e));
          // A browser that died is started afresh for the retry (and for every later page).
          if (!browser.isConnected()) this.forget(browser);
          if (attempt === 2 || this.closed) {
            const again = firstError && firstError.message !== error.message ? `; before that: ${firstError.message}` : '';
            throw new RenderFailedError(`render failed twice: ${error.message}${again}`);
          }
          firstError = error;
        }
      }
    } finally {
      this.release();
    }
  }

  /**
   * Runs `fn` with the pool's browser in one of its page places (the same bound on pages at once
   * as renders): for pages the pool's own slots cannot show, such as a replay that needs its
   * service worker. A browser that died is started afresh for the next caller.
   */
  async use<T>(signal: AbortSignal, fn: (browser: Browser) => Promise<T>): Promise<T> {
    await this.acquire(signal);
    try {
      const browser = await this.started();
      try {
        return await fn(browser);
      } finally {
        if (!browser.isConnected()) this.forget(browser);
      }
    } finally {
      this.release();
    }
  }

  /** The running browser, for tests that need to make it fail. */
  current(): Promise<Browser> | null {
    return this.browser;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    this.live = null;
    this.idle = [];
    for (const watch of this.memory.values()) watch.stop();
    this.memory.clear();
    if (browser) await (await browser.catch(() => null))?.close().catch(() => {});
  }

  private started(): Promise<Browser> {
    if (this.closed) return Promise.reject(new RenderAbortedError());
    if (this.browser === null) {
      this.launches++;
      const launching = this.launch();
      this.browser = launching;
      launching.then(
        (b) => {
          this.live = b;
          b.once('disconnected', () => this.forget(b));
        },
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
      return launching.catch((e: unknown) => {
        throw new RenderFailedError(`cannot start the browser ${this.opts.executablePath}: ${(e as Error).message.split('\n')[0]}`);
      });
    }
    return this.browser;
  }

  /** Starts a browser, and the watch on its renderers' memory before any page opens. */
  private async launch(): Promise<Browser> {
    const browser = await chromium.launch({
      executablePath: this.opts.executablePath,
      headless: true,
      chromiumSandbox: sandboxAllowed(),
      args: browserArgs(this.opts.maxPageHeapMb),
      timeout: LAUNCH_TIMEOUT_MS,
      // The crawl handles its own signals: a Ctrl-C pauses it and it closes the browser itself.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    try {
      const watch = await RendererMemoryWatch.start(browser, this.opts.maxPageHeapMb + RENDERER_BASE_MB);
      if (watch !== null) this.memory.set(browser, watch);
    } catch (e) {
      await browser.close().catch(() => {});
      throw e;
    }
    return browser;
  }

  private forget(b: Browser): void {
    this.memory.get(b)?.stop();
    this.memory.delete(b);
    if (this.live === b) {
      this.live = null;
      this.browser = null;
      this.idle = [];
    }
    void b.close().catch(() => {});
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new RenderAbortedError());
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new RenderAbortedError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
