import type { CDPSession, Page } from 'playwright-core';
import { blankPng } from './blankImage.js';
import { CLICK_LOAD_MORE, SCROLL_STEP, serializeDom } from './inPage.js';
import type { NetworkWatch } from './networkWatch.js';
import { WAIT_FOR_TIMERS } from './redirectTimers.js';
import type { RenderedPage, RenderPolicy, RenderTarget } from './types.js';

export const VIEWPORT = { width: 1280, height: 800 };
/** Thumbnails are the first screenful scaled to a quarter: 320 x 200. */
export const THUMBNAIL_SCALE = 0.25;
export const THUMBNAIL_WIDTH = VIEWPORT.width * THUMBNAIL_SCALE;
export const THUMBNAIL_HEIGHT = VIEWPORT.height * THUMBNAIL_SCALE;

/**
 * The network counts as idle after this long with nothing in flight: long enough for a script to
 * act on a response (render it, ask for the next thing), short enough not to dominate a page's time.
 */
export const QUIET_MS = 150;
/** After a scroll or a click, requests it causes start within this long, if at all. */
export const GRACE_MS = 50;
/** Scroll steps of one screenful at most: infinite scrolling stops here. */
export const MAX_SCROLL_STEPS = 25;
/** "Load more" buttons clicked at most per page. */
export const MAX_CLICKS = 3;
/** Time kept back from the page limit for serializing and the thumbnail. */
export const CAPTURE_RESERVE_MS = 3_000;
/** Full-page screenshots are cut at this height. */
const MAX_SCREENSHOT_HEIGHT = 16_384;

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
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
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
export interface Current {
  target: RenderTarget;
  net: NetworkWatch;
  navigations: string[];
  /** Addresses the page moved to without loading a document (history.pushState, replaceState). */
  routes: string[];
  /** Resolves when the page's scripts first try to navigate away. */
  navigated: () => void;
  pageServed: boolean;
  signal: AbortSignal;
}

export async function capture(page: Page, cdp: CDPSession, cur: Current, policy: RenderPolicy, navigation: Promise<void>): Promise<RenderedPage> {
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
  if (navigations.length === 0) {
    await settle();
    // A redirect the page scheduled while loading is followed before anything else is done. The
    // wait runs on the page's own timers, which its scripts may have broken: bounded, and no failure.
    const left = deadline.left(CAPTURE_RESERVE_MS);
    if (left > 0) await Promise.race([within(page.evaluate(WAIT_FOR_TIMERS), left, 'waiting for the timers').catch(() => {}), navigation]);
  }
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
  // A page that left by script before its first paint is never painted: its pictures are blank.
  const painted = navigations.length === 0 || ((await within(page.evaluate(`performance.getEntriesByType('paint').length > 0`), reserve, 'reading whether the page was painted')) as boolean);
  const thumbnail = painted ? await thumbnailOf(cdp, reserve) : blankPng(THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT);
  const screenshot = !policy.screenshots ? null : painted ? await screenshotOf(page, reserve) : blankPng(VIEWPORT.width, VIEWPORT.height);
  return { html, navigations, routes: cur.routes, thumbnail, screenshot, timedOut };
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
