import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { exportWacz } from '../export/wacz.js';
import type { BrowserPool } from '../render/browserPool.js';
import { VIEWPORT } from '../render/capture.js';
import { RenderAbortedError } from '../render/types.js';
import { startReplayServer, type ReplayServer } from '../replay/replayServer.js';
import type { Archive } from '../store/archive.js';
import { readMetadata } from '../store/metadata.js';
import { ReplayTab, ReplayTabMismatch, type ReplayedPage } from './replayTab.js';

/**
 * The WACZ replay of one capture as the analysis's second copy: the capture exported to a WACZ in a
 * temporary folder, served with ReplayWeb.page's own files on 127.0.0.1, and each page shown in
 * the pool's browser, in a context of its own that lets ReplayWeb.page's service worker run (the
 * render slots block service workers) and refuses every request to any other origin, so nothing
 * the replay shows comes from the web. Same viewport, scrolling and waits as a render. Its tabs
 * keep ReplayWeb.page loaded from one page to the next (see ReplayTab).
 */
export class ReplayCopy {
  private readonly contexts = new Map<Browser, Promise<BrowserContext>>();
  /** Tabs of each browser with ReplayWeb.page loaded and no page being shown: as many as replays ran at once. */
  private readonly idle = new Map<Browser, ReplayTab[]>();

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
    this.idle.clear();
    for (const c of this.contexts.values()) await (await c.catch(() => null))?.close().catch(() => {});
    this.contexts.clear();
    await this.server.close();
    await rm(this.dir, { recursive: true, force: true });
  }

  /**
   * Replays one archived page within `timeoutMs` (what it shows then is taken, as a render does), in
   * a tab that replayed pages before where there is one. A page that left by script, or a tab that
   * failed, is not used again; a used tab whose frame went elsewhere gives way to a fresh one.
   */
  async render(pool: BrowserPool, url: string, timeoutMs: number, settleMs: number, signal: AbortSignal): Promise<ReplayedPage> {
    return pool.use(signal, async (browser) => {
      const context = await this.contextOf(browser);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const tab = this.idle.get(browser)?.pop() ?? (await ReplayTab.open(context, (u) => this.server.embedUrl(u)));
        const stop = () => void tab.close();
        signal.addEventListener('abort', stop, { once: true });
        try {
          const shown = await tab.show(url, deadline, settleMs, signal);
          if (shown.leftFor === null && tab.reusable && browser.isConnected()) this.idle.get(browser)?.push(tab);
          else await tab.close();
          return shown;
        } catch (e) {
          await tab.close();
          if (signal.aborted) throw new RenderAbortedError();
          if (!(e instanceof ReplayTabMismatch)) throw e;
        } finally {
          signal.removeEventListener('abort', stop);
        }
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
      this.idle.set(browser, []);
      browser.once('disconnected', () => {
        this.contexts.delete(browser);
        this.idle.delete(browser);
      });
    }
    return context;
  }
}
