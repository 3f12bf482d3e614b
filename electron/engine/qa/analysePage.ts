import * as cheerio from 'cheerio';
import type { QaMissing, QaPageResult } from '../../../shared/qa.js';
import type { BrowserPool } from '../render/browserPool.js';
import { mirrorFileOf, mirrorUrlOf } from '../render/mirrorBroker.js';
import { RenderAbortedError, type RenderedPage } from '../render/types.js';
import { canonicalize } from '../url/canonical.js';
import type { ArchivedFiles } from './archivedFiles.js';
import type { CopySource } from './captureBroker.js';
import type { PageEvidence } from './evidence.js';
import { fetchLive, LiveBroker } from './liveBroker.js';
import { RecordingBroker, type RecordedRequest } from './recordingBroker.js';
import { screenshotMatch } from './screenshotMatch.js';
import { textMatch } from './textMatch.js';
import { visibleText } from './visibleText.js';

export interface PageAnalysisContext {
  pool: BrowserPool;
  /** The copy compared: the offline copy, or an earlier capture's files. */
  mirror: CopySource;
  files: ArchivedFiles;
  userAgent: string;
  signal: AbortSignal;
  /** Keeps what a compared page showed (both captures and texts), before its result is recorded. */
  keep?: (url: string, localPath: string, evidence: PageEvidence) => Promise<void>;
}

/** One page: the live page and its offline copy rendered alike, then compared. */
export async function analysePage(ctx: PageAnalysisContext, url: string, capture: number): Promise<QaPageResult> {
  const result: QaPageResult = {
    url,
    capture,
    analysedAt: new Date().toISOString(),
    reference: 'live',
    copy: 'mirror',
    textMatch: null,
    screenshotMatch: null,
    missing: [],
    deadLinks: [],
    error: null,
  };
  const localPath = ctx.files.localPath(url);
  if (localPath === null) return { ...result, error: 'no copy in the offline copy' };
  const live = new RecordingBroker(new LiveBroker(ctx.userAgent));
  const copy = new RecordingBroker(ctx.mirror);
  let reference: RenderedPage;
  let copied: RenderedPage;
  try {
    const response = await fetchLive(url, ctx.userAgent, ctx.signal);
    if (response.status >= 400) return { ...result, error: `the live page answered HTTP ${response.status}` };
    reference = await ctx.pool.render({ url, response, broker: live, signal: ctx.signal });
  } catch (e) {
    if (e instanceof RenderAbortedError || ctx.signal.aborted) throw new RenderAbortedError();
    return { ...result, error: `the live page could not be rendered: ${(e as Error).message}` };
  }
  const copyUrl = mirrorUrlOf(localPath);
  try {
    copied = await ctx.pool.render({ url: copyUrl, response: await ctx.mirror.read(localPath), broker: copy, signal: ctx.signal });
  } catch (e) {
    if (e instanceof RenderAbortedError || ctx.signal.aborted) throw new RenderAbortedError();
    return { ...result, error: `the offline copy could not be rendered: ${(e as Error).message}` };
  }
  const referenceText = visibleText(reference.html);
  const copyText = visibleText(copied.html);
  await ctx.keep?.(url, localPath, { reference: { image: reference.thumbnail, text: referenceText }, copy: { image: copied.thumbnail, text: copyText } });
  return {
    ...result,
    textMatch: textMatch(referenceText, copyText),
    screenshotMatch: screenshotMatch(reference.thumbnail, copied.thumbnail),
    missing: missingFrom(live.requests, copy.requests, ctx.files),
    deadLinks: deadLinks(copied.html, copyUrl, ctx.files),
  };
}

/** What the reference loaded that the copy did not, each URL once. */
function missingFrom(reference: RecordedRequest[], copy: RecordedRequest[], files: ArchivedFiles): QaMissing[] {
  const loaded = new Set<string>();
  for (const r of copy) {
    const file = r.ok ? mirrorFileOf(r.url) : null;
    if (file !== null) for (const u of files.urlsAtPath(file)) loaded.add(u);
  }
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
