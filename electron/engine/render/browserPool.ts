import { chromium, type Browser } from 'playwright-core';
import { PageSlot } from './pageSession.js';
import { RenderAbortedError, RenderFailedError, type RenderedPage, type RenderPolicy, type RenderTarget } from './types.js';

export interface BrowserPoolOptions extends RenderPolicy {
  executablePath: string;
  /** Pages rendering at once. */
  pages: number;
  /** V8 heap cap of each renderer process, in MB. */
  maxPageHeapMb: number;
}

/** How long the browser may take to start. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * Switches that keep a headless browser from reaching anything on its own: no component or
 * safe-browsing updates, no sync, no background traffic. The dead proxy (with loopback not
 * bypassed) is a second lock: every request is meant to be answered by the route handler, so
 * anything that slips past it (a redirect the browser follows itself, a WebSocket) fails instead of
 * reaching a server.
 */
function browserArgs(maxPageHeapMb: number): string[] {
  return [
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--mute-audio',
    '--proxy-server=http://127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
    `--js-flags=--max-old-space-size=${maxPageHeapMb}`,
  ];
}

/**
 * Chromium's sandbox stays on, except where it cannot start: as root on Linux (containers, CI),
 * Chromium refuses to run with it.
 */
function sandboxAllowed(): boolean {
  return !(process.platform === 'linux' && process.getuid?.() === 0);
}

/**
 * A headless browser shared by a bounded number of page renders. The browser starts with the first
 * render; if it dies it is started again for the next. A render that fails (a crash, the browser
 * exiting, a page that stops answering) is tried once more before it is reported as failed.
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
          slot = this.idle.pop() ?? (await PageSlot.open(browser));
          const page = await slot.render(target, this.opts);
          if (slot.usable && this.live === browser) this.idle.push(slot);
          else await slot.close();
          return page;
        } catch (e) {
          if (slot !== null && !slot.usable) await slot.close();
          else if (slot !== null) this.idle.push(slot);
          if (e instanceof RenderAbortedError || target.signal.aborted) throw new RenderAbortedError();
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
    if (browser) await (await browser.catch(() => null))?.close().catch(() => {});
  }

  private started(): Promise<Browser> {
    if (this.closed) return Promise.reject(new RenderAbortedError());
    if (this.browser === null) {
      this.launches++;
      const launching = chromium.launch({
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

  private forget(b: Browser): void {
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
