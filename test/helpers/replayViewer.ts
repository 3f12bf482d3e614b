import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Frame } from 'playwright-core';
import { startReplayServer } from '../../electron/engine/replay/replayServer.js';

/** Debian's Chromium, which the replay tests drive (they are skipped where it is missing). */
export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** What the tests close once done with a viewer (the engine's replay server). */
export interface ViewerServer {
  close(): void;
}

/**
 * The engine's replay server (ReplayWeb.page's own files and the WACZ with byte ranges) for one
 * WACZ; `/` embeds `pageUrl` (at `ts`), `/?url=…&ts=…` another page or time of the same WACZ.
 */
export async function startViewerServer(wacz: string, pageUrl: string, ts?: string): Promise<{ server: ViewerServer; origin: string }> {
  const replay = await startReplayServer(wacz, { width: 1200, height: 900 }, { url: pageUrl, ...(ts !== undefined && { ts }) });
  return { server: { close: () => void replay.close() }, origin: replay.origin };
}

/**
 * The replay frame of `pageUrl` in ReplayWeb.page's embed, once loaded: the iframe whose URL ends
 * with the archived URL (…/<ts>mp_/<url>). With `ts`, that page at that time is embedded.
 */
export async function replayFrame(
  opener: Browser | BrowserContext,
  origin: string,
  pageUrl: string,
  opts: { ts?: string; timeoutMs?: number } = {},
): Promise<Frame> {
  const page = await opener.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(opts.ts === undefined ? `${origin}/` : `${origin}/?${new URLSearchParams({ url: pageUrl, ts: opts.ts })}`);
  let frame: Frame | undefined;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!frame && Date.now() < deadline) {
    frame = page.frames().find((f) => f.url().endsWith(pageUrl) && f.url().includes('mp_/'));
    if (!frame) await page.waitForTimeout(250);
  }
  assert.ok(frame, `a replay frame for ${pageUrl} (frames: ${page.frames().map((f) => f.url()).join(', ')})`);
  await frame.waitForLoadState('load');
  return frame;
}

