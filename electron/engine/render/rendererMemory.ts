import { readFile } from 'node:fs/promises';
import type { Browser, CDPSession } from 'playwright-core';

/**
 * What a renderer process may hold besides the page's V8 heap: an empty renderer was measured at
 * 75-160 MB resident (Chromium 156), and fonts, layout and images of an ordinary page add to it.
 */
export const RENDERER_BASE_MB = 256;
/** How often renderers' memory is read. A page filling memory as fast as it can gains ~100 MB in this time. */
const POLL_MS = 200;
/** A crash this long after a renderer was stopped for its memory is taken to be that stop. */
const CLAIM_WINDOW_MS = 10_000;

/** A renderer process stopped for its memory. */
export interface MemoryStop {
  pid: number;
  rssMb: number;
  capMb: number;
  atMs: number;
}

/** Resident memory of a process in MB, from /proc (Linux); null when it can't be read. */
async function residentMb(pid: number): Promise<number | null> {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Bounds the memory of a browser's renderer processes, which the V8 heap cap alone does not:
 * array buffers, images and the DOM live outside the heap (a page filling typed arrays grew its
 * renderer past 3.5 GB under a 512 MB heap cap). Every POLL_MS the browser is asked for its
 * renderer processes (CDP `SystemInfo.getProcessInfo`, so only this browser's) and each one's
 * resident memory is read from /proc; one over the cap is killed, which crashes its page, and the
 * stop is kept for that page's render to claim as its reason. Linux only: elsewhere there is no
 * /proc, and the V8 heap cap is the only bound.
 */
export class RendererMemoryWatch {
  private readonly stops: MemoryStop[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  private constructor(
    private readonly cdp: CDPSession,
    readonly capMb: number,
  ) {}

  /** Starts watching `browser`'s renderers, or returns null where process memory can't be read. */
  static async start(browser: Browser, capMb: number): Promise<RendererMemoryWatch | null> {
    if (process.platform !== 'linux') return null;
    const watch = new RendererMemoryWatch(await browser.newBrowserCDPSession(), capMb);
    browser.once('disconnected', () => watch.stop());
    watch.schedule();
    return watch;
  }

  /** The newest stop not yet claimed, from the last CLAIM_WINDOW_MS; each is claimed once. */
  claim(): MemoryStop | undefined {
    const now = Date.now();
    while (this.stops.length > 0 && now - this.stops[0]!.atMs > CLAIM_WINDOW_MS) this.stops.shift();
    return this.stops.pop();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    void this.cdp.detach().catch(() => {});
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check().finally(() => this.schedule()), POLL_MS);
    // A crawl that is done must not be kept alive by its watch.
    this.timer.unref();
  }

  private async check(): Promise<void> {
    let pids: number[];
    try {
      const { processInfo } = await this.cdp.send('SystemInfo.getProcessInfo');
      pids = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    } catch {
      // The browser is gone or going: its pool starts a new one, with a watch of its own.
      return;
    }
    for (const pid of pids) {
      const rssMb = await residentMb(pid);
      if (rssMb === null || rssMb <= this.capMb || this.stopped) continue;
      this.stops.push({ pid, rssMb: Math.round(rssMb), capMb: this.capMb, atMs: Date.now() });
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It exited meanwhile.
      }
    }
  }
}
