import { userAgentFor, type RenderSettings } from '../../../shared/job.js';
import { QA_COPIES, type QaCopy, type QaSummary } from '../../../shared/qa.js';
import { BrowserPool } from '../render/browserPool.js';
import { MirrorBroker } from '../render/mirrorBroker.js';
import { Archive } from '../store/archive.js';
import { analysePage } from './analysePage.js';
import { ArchivedFiles } from './archivedFiles.js';
import { CaptureBroker } from './captureBroker.js';
import { clearEvidence, type PageEvidence, removeEvidence, writeEvidence } from './evidence.js';
import { QaStore } from './qaStore.js';
import { ReplayCopy } from './replayCopy.js';

export interface AnalyseOptions {
  /** The capture whose pages are analysed; default the current one. */
  capture?: number;
  /** Pages analysed at most in this run (a sample). */
  limit?: number;
  /** Analyse again pages that already have a result (it replaces theirs). */
  fresh?: boolean;
  /** Analyse exactly these pages again (a patch's), whatever an earlier run found; their results are replaced. */
  pages?: string[];
  /** The copies compared with the reference; default both, the mirror and the WACZ replay (for `pages`, those their earlier results compared). */
  copies?: readonly QaCopy[];
  /** A WACZ exported from the archive to replay; default the capture exported now. */
  wacz?: string;
  signal: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface AnalyseOutcome {
  capture: number;
  /** Pages analysed in this run. */
  analysed: number;
  /** Pages skipped because an earlier run analysed them. */
  kept: number;
}

/** Thrown for a capture the archive does not have. */
export class QaUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QaUsageError';
  }
}

/**
 * Analyses a finished archive's HTML pages: each page's reference and copies are rendered in one
 * browser, in tabs of their own at the same time, `settings.pages` pages at a time, and the figures
 * kept in the catalogue as each page is done, so an interrupted run resumes where it stopped.
 */
export async function analyseArchive(archive: Archive, settings: RenderSettings & { executablePath: string }, opts: AnalyseOptions): Promise<AnalyseOutcome> {
  const current = archive.catalogue.currentCapture();
  const capture = opts.capture ?? current;
  if (capture < 1 || capture > current) throw new QaUsageError(`the archive has no capture ${capture} (captures 1 to ${current})`);
  const store = new QaStore(archive.catalogue.sqlite);
  store.prepare();
  if (opts.fresh) {
    store.clear(capture);
    await clearEvidence(archive.dir, capture);
  }
  const kept = opts.pages === undefined ? store.count(capture) : 0;
  // The capture's pages are read through a reader of their own as they are analysed (results are
  // written meanwhile on the archive's connection), so none is held however many the archive has.
  const reader = opts.pages === undefined ? Archive.open(archive.dir, { readonly: true }) : null;
  const pending = (): Iterable<string> => (reader === null ? opts.pages! : pagesNotAnalysed(reader, store, capture));
  try {
    let total = 0;
    for (const _ of pending()) total++;
    if (opts.limit !== undefined) total = Math.min(total, Math.max(0, opts.limit - kept));
    return { capture, analysed: await analysePages({ archive, settings, opts, store, capture, current }, pending(), total), kept };
  } finally {
    reader?.close();
  }
}

function* pagesNotAnalysed(reader: Archive, store: QaStore, capture: number): Generator<string> {
  for (const p of reader.catalogue.iterateCapturePages(capture)) if (!store.has(capture, p.url)) yield p.url;
}

interface AnalysisRun {
  archive: Archive;
  settings: RenderSettings & { executablePath: string };
  opts: AnalyseOptions;
  store: QaStore;
  capture: number;
  /** The archive's newest capture. */
  current: number;
}

/** Analyses the first `total` of `urls`, `settings.pages` at a time; returns how many were. */
async function analysePages(run: AnalysisRun, urls: Iterable<string>, total: number): Promise<number> {
  const { archive, settings, opts, store, capture, current } = run;
  const copies = opts.copies ?? (opts.pages === undefined ? QA_COPIES : copiesComparedBefore(store, capture, opts.pages));
  // The replay needs the capture as a WACZ: exported once, before any page (nothing to do, nothing exported).
  const replay = copies.includes('replay') && total > 0 ? await ReplayCopy.open(archive, capture, opts.signal, opts.wacz) : null;
  // Each page's reference and copies render at once, each in a tab of its own: `pages` pages at a time.
  const pool = new BrowserPool({ ...settings, pages: settings.pages * (1 + copies.length), screenshots: false });
  const files = new ArchivedFiles(archive);
  const ctx = {
    pool,
    // An earlier capture's copy is its own files (the viewer's @capture/<n>/), the newest's the offline copy.
    mirror: capture === current ? new MirrorBroker(archive) : new CaptureBroker(archive, capture, new MirrorBroker(archive)),
    compareMirror: copies.includes('mirror'),
    replay,
    replayLimits: { pageTimeoutMs: settings.pageTimeoutMs, settleMs: settings.settleMs },
    files,
    archiveDir: archive.dir,
    userAgent: userAgentFor(archive.job),
    signal: opts.signal,
    keep: (_url: string, localPath: string, evidence: PageEvidence) => writeEvidence(archive.dir, capture, localPath, evidence),
  };
  let analysed = 0;
  opts.onProgress?.(0, total);
  // The first failure (an abandoned render) stops new pages; those under way settle first.
  let failure: unknown = null;
  try {
    const running = new Set<Promise<void>>();
    let started = 0;
    for (const url of urls) {
      if (opts.signal.aborted || failure !== null || started++ === total) break;
      const task: Promise<void> = analysePage(ctx, url, capture)
        .then(async (r) => {
          // A page whose reference could not be rendered keeps nothing from an earlier analysis.
          const localPath = Object.keys(r.copies).length > 0 ? null : files.localPath(url);
          if (localPath !== null) await removeEvidence(archive.dir, capture, localPath);
          store.put(r);
          opts.onProgress?.(++analysed, total);
        })
        .catch((e: unknown) => void (failure ??= e))
        .finally(() => running.delete(task));
      running.add(task);
      if (running.size >= settings.pages) await Promise.race(running);
    }
    await Promise.all(running);
    if (failure !== null) throw failure;
  } finally {
    await pool.close();
    await replay?.close();
  }
  return analysed;
}

/** The copies earlier results of these pages compared (a patch analyses its pages again alike); all where none. */
function copiesComparedBefore(store: QaStore, capture: number, pages: readonly string[]): readonly QaCopy[] {
  const seen = new Set<QaCopy>();
  for (const url of pages) for (const c of QA_COPIES) if (store.result(capture, url)?.copies[c] !== undefined) seen.add(c);
  return seen.size === 0 ? QA_COPIES : QA_COPIES.filter((c) => seen.has(c));
}

/** The figures of a capture's analysis for the QA report; null if it was never analysed. */
export function qaSummary(archive: Archive, capture: number, worst = 20): QaSummary | null {
  const store = new QaStore(archive.catalogue.sqlite);
  const figures = store.figures(capture);
  if (figures.analysed === 0) return null;
  return { capture, ...figures, worst: store.results(capture, worst) };
}
