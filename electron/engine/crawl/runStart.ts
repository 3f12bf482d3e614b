import type { CrawlEvent } from '../../../shared/crawl.js';
import type { Fetcher } from '../fetch/fetcher.js';
import type { FocusPolicy } from '../focus/focusPolicy.js';
import type { HostGates } from '../politeness/hostGate.js';
import type { Archive } from '../store/archive.js';
import { canonicalize } from '../url/canonical.js';
import { closeQuietly, openArchiving, type ArchivingParts } from './archivingParts.js';
import { ByteBudget } from './byteBudget.js';
import type { CrawlLimits } from './crawlLimits.js';
import type { Frontier } from './frontier.js';
import { HostHolds } from './hostHolds.js';
import type { Lanes } from './lanes.js';
import { gateLimitsFor } from './politeDelay.js';
import type { ProgressMeter } from './progress.js';
import type { RenderedCapture } from './renderedCapture.js';
import type { RequestHeaders } from './requestHeaders.js';
import { seedsOfCapture } from './seedDiscovery.js';
import { SiteDispatch } from './siteDispatch.js';
import { UrlProcessor } from './urlProcessor.js';

/**
 * Memory the crawl gives bodies over 1 MiB at once (see BodyShare). A body of unknown or larger
 * size takes all of it, so a compression bomb or a 100 MB file is held alone.
 */
const LARGE_BODIES_BYTES = 16 * 1024 * 1024;

export interface RunStartParts {
  archive: Archive;
  frontier: Frontier;
  meter: ProgressMeter;
  emit: (e: CrawlEvent) => void;
  /** A focused harvest's decisions; null without a template. */
  focus: FocusPolicy | null;
  fetcher: Fetcher;
  requestHeaders: RequestHeaders;
  gates: HostGates;
  lanes: Lanes;
  limits: CrawlLimits;
  inFlight: Map<AbortController, string>;
  /** First retry's back-off. */
  retryBackoffMs: number;
  /** How long a host that stopped answering is waited for; HostHolds' default if absent. */
  outageLimitMs?: number;
  /** Reports a host held or released, in a state event. */
  say: (message: string) => void;
  /** Whether the crawl is still running. */
  running: () => boolean;
  /** Lets the crawl dispatch again. */
  pump: () => void;
  /** Stops the crawl. */
  fail: (e: unknown) => void;
}

/** What a started run writes through and dispatches with; `rendering` is null unless the job renders pages. */
export interface OpenedRun {
  parts: ArchivingParts;
  rendering: RenderedCapture | null;
  dispatch: SiteDispatch;
}

/**
 * Opens a run: its writers, the browser when the job renders, the capture marked running in the
 * catalogue, the seeds admitted (for a focused harvest with those its template discovers), and
 * the request path over them. If a step fails, what was opened is closed again (its threads
 * would keep the process alive).
 */
export async function openRun(p: RunStartParts): Promise<OpenedRun> {
  const { archive, focus } = p;
  const { job, catalogue: c } = archive;
  const parts = await openArchiving(archive, { frontier: p.frontier, meter: p.meter, emit: p.emit, focus });
  let rendering: RenderedCapture | null = null;
  try {
    if (job.render.enabled) rendering = await openRendering(p, parts);
    c.transaction(() => {
      if (c.getMeta('started_at') === null) c.setMeta('started_at', new Date().toISOString());
      c.ensureCapture(new Date(c.getMeta('started_at')!));
      c.setMeta('state', 'running');
    });
    const seeds = job.seeds.map((seed) => canonicalize(seed)).filter((url) => url !== null);
    const ranked = focus === null ? seeds : [...seeds, ...(await discoveredSeeds(p, parts, seeds))];
    c.transaction(() => {
      for (const url of focus === null ? seeds : focus.seedsToAdmit(c, ranked)) {
        p.frontier.admitSeed(url, focus?.seedScore);
      }
    });
  } catch (e) {
    await rendering?.close();
    await closeQuietly(parts);
    throw e;
  }
  return { parts, rendering, dispatch: dispatchFor(p, parts, rendering) };
}

/** Site dispatch over the URL processor, both minding the same hosts held by outages and Retry-After. */
function dispatchFor(p: RunStartParts, parts: ArchivingParts, rendering: RenderedCapture | null): SiteDispatch {
  const { job, catalogue } = p.archive;
  const holds = new HostHolds({ ...(p.outageLimitMs !== undefined && { outageLimitMs: p.outageLimitMs }), say: p.say });
  const processor = new UrlProcessor({
    job,
    catalogue,
    fetcher: p.fetcher,
    requestHeaders: p.requestHeaders,
    archiver: parts.archiver,
    rendering,
    limits: p.limits,
    inFlight: p.inFlight,
    retryBackoffMs: p.retryBackoffMs,
    holds,
    running: p.running,
    pump: p.pump,
    largeBodies: new ByteBudget(LARGE_BODIES_BYTES),
  });
  return new SiteDispatch({
    job,
    catalogue,
    gates: p.gates,
    holds,
    lanes: p.lanes,
    fetcher: p.fetcher,
    warc: parts.warc,
    archiver: parts.archiver,
    processor,
    inFlight: p.inFlight,
    pump: p.pump,
    fail: p.fail,
  });
}

/** A template's discovered seeds (see seedDiscovery.ts), through the crawl's fetcher, gates and robots.txt. */
function discoveredSeeds(p: RunStartParts, parts: ArchivingParts, jobSeeds: string[]): Promise<string[]> {
  const { job, catalogue } = p.archive;
  return seedsOfCapture(job.template!, jobSeeds, {
    fetcher: p.fetcher,
    gates: p.gates,
    catalogue,
    warc: parts.warc,
    respectRobots: job.politeness.respectRobots,
    limitsFor: (policy) => gateLimitsFor(job, policy),
    inScope: (url) => p.frontier.scope.inScope(url),
    inFlight: p.inFlight,
  });
}

/** Loaded only for a job that renders: a static crawl never loads the browser driver. */
async function openRendering(p: RunStartParts, parts: ArchivingParts): Promise<RenderedCapture> {
  const { RenderedCapture } = await import('./renderedCapture.js');
  return RenderedCapture.open(p.archive.job.render, {
    job: p.archive.job,
    archive: p.archive,
    frontier: p.frontier,
    archiver: parts.archiver,
    fetcher: p.fetcher,
    requestHeaders: p.requestHeaders,
    gates: p.gates,
    lanes: p.lanes,
    limits: p.limits,
    warc: parts.warc,
    inFlight: p.inFlight,
    wake: p.pump,
    fail: p.fail,
  });
}
