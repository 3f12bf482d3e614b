import * as cheerio from 'cheerio';
import { worstOfCopies, type QaCopyResult, type QaMissing, type QaPageResult, type QaReference } from '../../../shared/qa.js';
import type { BrowserPool } from '../render/browserPool.js';
import { mirrorFileOf, mirrorUrlOf } from '../render/mirrorBroker.js';
import { RenderAbortedError } from '../render/types.js';
import { canonicalize } from '../url/canonical.js';
import type { ArchivedFiles } from './archivedFiles.js';
import { readCrawlRender } from '../render/crawlRender.js';
import type { CopySource } from './captureBroker.js';
import type { PageEvidence } from './evidence.js';
import { fetchLive, LiveBroker } from './liveBroker.js';
import { RecordingBroker, type RecordedRequest } from '../render/recordingBroker.js';
import type { ReplayCopy } from './replayCopy.js';
import type { ReplayedPage } from './replayTab.js';
import { screenshotMatch } from './screenshotMatch.js';
import { textMatch } from './textMatch.js';
import { visibleText } from '../render/renderedText.js';

export interface PageAnalysisContext {
  pool: BrowserPool;
  /** The copy compared: the offline copy, or an earlier capture's files. */
  mirror: CopySource;
  /** Whether the mirror copy is compared (`--copies`). */
  compareMirror: boolean;
  /** The WACZ replay of the capture, when it is compared. */
  replay: ReplayCopy | null;
  /** The time limit and settling wait of a replayed page (a render's). */
  replayLimits: { pageTimeoutMs: number; settleMs: number };
  files: ArchivedFiles;
  /** The archive folder, where a rendered crawl kept its pages' renders (used as the reference where there is one). */
  archiveDir: string;
  userAgent: string;
  signal: AbortSignal;
  /** Keeps what a compared page showed (the captures and texts of each side), before its result is recorded. */
  keep?: (url: string, localPath: string, evidence: PageEvidence) => Promise<void>;
}

const rethrowAbort = (e: unknown, signal: AbortSignal): void => {
  if (e instanceof RenderAbortedError || signal.aborted) throw new RenderAbortedError();
};

/** One page: the reference and each copy rendered alike, each in a tab of its own at the same time, then compared. */
export async function analysePage(ctx: PageAnalysisContext, url: string, capture: number): Promise<QaPageResult> {
  const result: QaPageResult = {
    url,
    capture,
    analysedAt: new Date().toISOString(),
    reference: 'live',
    copies: {},
    textMatch: null,
    screenshotMatch: null,
    missing: [],
    deadLinks: [],
    error: null,
  };
  const localPath = ctx.files.localPath(url);
  if (localPath === null) return { ...result, error: 'no copy in the offline copy' };
  const copyUrl = mirrorUrlOf(localPath);
  // Every render settles before the page's result (or an abort) is given: none outlives its page.
  const [reference, mirror, replay] = await settled([
    referenceOf(ctx, url, localPath, capture),
    ctx.compareMirror ? mirrorOf(ctx, localPath, copyUrl) : null,
    ctx.replay !== null ? replayOf(ctx, ctx.replay, url) : null,
  ]);
  if ('error' in reference) return { ...result, error: reference.error };
  result.reference = reference.kind;
  const referenceText = reference.text;
  const compare = (text: string, thumbnail: Buffer, requests: RecordedRequest[], loadedBy: (r: RecordedRequest) => string[]): QaCopyResult => ({
    textMatch: textMatch(referenceText, text),
    screenshotMatch: screenshotMatch(reference.thumbnail, thumbnail),
    missing: missingFrom(reference.requests, requests, loadedBy),
    error: null,
  });
  const failed = (error: string): QaCopyResult => ({ textMatch: null, screenshotMatch: null, missing: [], error });
  const evidence: PageEvidence = { reference: { image: reference.thumbnail, text: referenceText } };
  const copies: QaPageResult['copies'] = {};
  if (mirror !== null && 'error' in mirror) copies.mirror = failed(mirror.error);
  else if (mirror !== null) {
    const text = visibleText(mirror.html);
    const mirrored = compare(text, mirror.thumbnail, mirror.requests, (r) => {
      const file = mirrorFileOf(r.url);
      return file === null ? [] : ctx.files.urlsAtPath(file);
    });
    // A rendered crawl's copy is the DOM its scripts built, the scripts taken out: what they
    // loaded is in it already, and nothing the copy lacks.
    copies.mirror = mirror.runsScripts ? mirrored : { ...mirrored, missing: mirrored.missing.filter((m) => !SCRIPT_LOADS.has(m.type)) };
    evidence.copy = { image: mirror.thumbnail, text };
  }
  if (replay !== null && 'error' in replay) copies.replay = failed(replay.error);
  else if (replay !== null) {
    const text = visibleText(replay.html);
    copies.replay =
      replay.leftFor === null
        ? compare(text, replay.thumbnail, replay.requests, (r) => [canonicalize(r.url) ?? r.url])
        : { textMatch: null, screenshotMatch: null, missing: [], error: null, skipped: `the replay left for ${replay.leftFor} by script, where the renders stay on the page` };
    evidence.replay = { image: replay.thumbnail, text };
  }
  await ctx.keep?.(url, localPath, evidence);
  return {
    ...result,
    copies,
    ...worstOfCopies(copies),
    deadLinks: mirror === null || 'error' in mirror ? [] : deadLinks(mirror.html, copyUrl, ctx.files),
  };
}

/** Waits for every promise; then gives their values, or throws the first rejection. */
async function settled<T extends readonly unknown[]>(all: { [K in keyof T]: Promise<T[K]> | T[K] }): Promise<T> {
  const outcomes = await Promise.allSettled(all);
  const rejected = outcomes.find((o) => o.status === 'rejected');
  if (rejected !== undefined) throw rejected.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

interface MirrorShown {
  html: string;
  thumbnail: Buffer;
  requests: RecordedRequest[];
  /** Whether the copy's file as stored holds a script the browser runs. */
  runsScripts: boolean;
}

/** The offline copy of the page rendered, or why it could not be. */
async function mirrorOf(ctx: PageAnalysisContext, localPath: string, copyUrl: string): Promise<MirrorShown | { error: string }> {
  const copy = new RecordingBroker(ctx.mirror);
  try {
    const file = await ctx.mirror.read(localPath);
    const copied = await ctx.pool.render({ url: copyUrl, response: file, broker: copy, signal: ctx.signal });
    return { html: copied.html, thumbnail: copied.thumbnail, requests: copy.requests, runsScripts: runsScripts(file.body.toString('utf8')) };
  } catch (e) {
    rethrowAbort(e, ctx.signal);
    return { error: `the offline copy could not be rendered: ${(e as Error).message}` };
  }
}

/** The page as the WACZ replay shows it, or why it could not be. */
async function replayOf(ctx: PageAnalysisContext, replay: ReplayCopy, url: string): Promise<ReplayedPage | { error: string }> {
  try {
    return await replay.render(ctx.pool, url, ctx.replayLimits.pageTimeoutMs, ctx.replayLimits.settleMs, ctx.signal);
  } catch (e) {
    rethrowAbort(e, ctx.signal);
    return { error: `the replay could not be shown: ${(e as Error).message}` };
  }
}

/** What only a page's scripts load (Playwright's resource types). */
const SCRIPT_LOADS = new Set(['script', 'fetch', 'xhr', 'eventsource', 'websocket']);
/** Script types a browser runs (as serializeDom removes them). */
const SCRIPT_TYPE = /^(|text\/javascript|application\/javascript|module|text\/ecmascript|application\/ecmascript|text\/jscript|text\/livescript|text\/x-javascript|application\/x-javascript)$/i;

/** Whether a document (the copy's file as stored; a render's DOM has its scripts taken out) holds any script the browser runs. */
function runsScripts(html: string): boolean {
  const $ = cheerio.load(html);
  return $('script').toArray().some((el) => SCRIPT_TYPE.test(($(el).attr('type') ?? '').trim()));
}

interface Reference {
  kind: QaReference;
  thumbnail: Buffer;
  text: string;
  requests: RecordedRequest[];
}

/**
 * What the copies are compared with: the page's crawl-time render where the capture's crawl rendered
 * it (nothing is asked of the live site then), or else the live page rendered now.
 */
async function referenceOf(ctx: PageAnalysisContext, url: string, localPath: string, capture: number): Promise<Reference | { error: string }> {
  const crawled = readCrawlRender(ctx.archiveDir, localPath, capture);
  if (crawled !== null) return { kind: 'crawl-render', thumbnail: crawled.thumbnail, text: crawled.record.text, requests: crawled.record.requests };
  const live = new RecordingBroker(new LiveBroker(ctx.userAgent));
  try {
    const response = await fetchLive(url, ctx.userAgent, ctx.signal);
    if (response.status >= 400) return { error: `the live page answered HTTP ${response.status}` };
    const rendered = await ctx.pool.render({ url, response, broker: live, signal: ctx.signal });
    return { kind: 'live', thumbnail: rendered.thumbnail, text: visibleText(rendered.html), requests: live.requests };
  } catch (e) {
    rethrowAbort(e, ctx.signal);
    return { error: `the live page could not be rendered: ${(e as Error).message}` };
  }
}

/** What the reference loaded that the copy did not, each URL once; `loadedBy` names the archived URLs a copy's request stands for. */
function missingFrom(reference: RecordedRequest[], copy: RecordedRequest[], loadedBy: (r: RecordedRequest) => string[]): QaMissing[] {
  const loaded = new Set<string>();
  for (const r of copy) if (r.ok) for (const u of loadedBy(r)) loaded.add(u);
  const missing = new Map<string, QaMissing>();
  for (const r of reference) {
    if (!r.ok) continue;
    const canonical = canonicalize(r.url) ?? r.url;
    if (!loaded.has(canonical) && !missing.has(canonical)) missing.set(canonical, { url: canonical, type: r.type });
  }
  return [...missing.values()];
}

/** Links of the rendered copy into the offline copy that find no file there. */
function deadLinks(html: string, pageUrl: string, files: ArchivedFiles): string[] {
  const $ = cheerio.load(html);
  const dead = new Set<string>();
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    let target: string;
    try {
      target = new URL(href, pageUrl).href;
    } catch {
      return;
    }
    const file = mirrorFileOf(target.split('#')[0]!.split('?')[0]!);
    if (file !== null && !files.exists(file)) dead.add(file);
  });
  return [...dead];
}
