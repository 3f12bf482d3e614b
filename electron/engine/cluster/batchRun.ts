import { performance } from 'node:perf_hooks';
import { ADAPTIVE_DELAY_FLOOR_MS, type Job } from '../../../shared/job.js';
import { documentKind } from '../crawl/documents.js';
import type { DocumentPool, PreparedTicket } from '../crawl/documentPool.js';
import { MAX_LINKS_QUEUED_PER_PAGE } from '../crawl/linkAdmission.js';
import type { RequestHeaders } from '../crawl/requestHeaders.js';
import { FetchError } from '../fetch/errors.js';
import type { Fetcher, FetchResponse } from '../fetch/fetcher.js';
import { attemptsNote, retryWaitMs, sleep } from '../fetch/retry-policy.js';
import type { HostGateRegistry } from '../politeness/hostGate.js';
import type { RobotsPolicy } from '../politeness/robots.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { WarcWriter } from '../warc/writer.js';
import type { Discovery } from '../crawl/frontier.js';
import type { PageVerdict } from '../focus/focusJudge.js';
import type { ClusterAdmission, ClusterDiscovery } from './admission.js';
import type { BatchResult, UrlOutcome } from './batchCommit.js';
import { MAX_ADAPTIVE_DELAY_MS, type FetchTimes } from './batchSize.js';
import type { ClusterFocus, JudgedPage } from './clusterFocus.js';
import type { Lease, LeasedUrl } from './coordination.js';
import type { RenderOutcome } from '../crawl/renderedCapture.js';
import { writeRenderedOriginal } from './renderedOriginals.js';

/** A worker's rendered capture (cluster/rendering.ts), loaded only when the job renders. */
export interface BatchRendering {
  /** The shared store: thumbnails/ and rendered/ go under it. */
  store: string;
  wants(u: LeasedUrl, res: FetchResponse): boolean;
  render(t: BatchTools, u: LeasedUrl, res: FetchResponse, result: BatchResult): Promise<RenderOutcome>;
  close(): Promise<void>;
}

/** The engine's lower floors a worker fetches and archives with. */
export interface BatchTools {
  job: Job;
  fetcher: Fetcher;
  headers: RequestHeaders;
  gates: HostGateRegistry;
  warc: WarcWriter | null;
  documents: DocumentPool;
  admission: ClusterAdmission;
  times: FetchTimes;
  retryBackoffMs: number;
  signal: AbortSignal;
  /** null: the job does not render (and playwright-core is never loaded). */
  rendering: BatchRendering | null;
  /** A focused harvest's judge and the pages committed so far; null without a template. */
  focus: ClusterFocus | null;
}

/** How often a request slot the gate refused is asked for again while the host is busy. */
const GATE_POLL_MS = 20;

/**
 * Fetches and archives one lease's URLs: `connections` requests at a time to the site, each start
 * through the host gate (the job's delay, or the adaptive one; robots.txt Crawl-delay raises
 * either), every exchange in the worker's WARC, documents parsed, rewritten and saved by the
 * document workers, other files written as they came. Nothing is reported until the batch commits.
 */
export async function runBatch(t: BatchTools, lease: Lease, robots: RobotsPolicy): Promise<BatchResult> {
  const result: BatchResult = {
    outcomes: [],
    pageRequests: [],
    discoveries: [],
    seedRedirects: [],
    fetched: 0,
    bytes: 0,
    failures: 0,
    pages: 0,
    focus: t.focus?.batch() ?? null,
  };
  const host = new URL(lease.site).host;
  const pace = { lastResponseMs: 0, lastStartMs: 0 };
  const queue = [...lease.urls];
  const lane = async (): Promise<void> => {
    for (let u = queue.shift(); u !== undefined; u = queue.shift()) {
      if (t.signal.aborted) {
        result.outcomes.push({ id: u.id, state: 'released' });
        continue;
      }
      if (!robots.isAllowed(u.url)) {
        result.outcomes.push(skipped(u, robots.unavailable === undefined ? 'robots' : 'robots:unreachable', robots.unavailable ?? null));
        continue;
      }
      const release = await slot(t, host, robots, pace);
      if (release === null) {
        result.outcomes.push({ id: u.id, state: 'released' });
        continue;
      }
      let fetched: FetchResponse | FetchError;
      const startedMs = performance.now();
      try {
        fetched = await t.fetcher.fetch(u.url, { signal: t.signal, headers: t.headers.for(u.url) });
      } catch (e) {
        if (!(e instanceof FetchError)) throw e;
        fetched = e;
      } finally {
        release();
      }
      const ms = fetched instanceof FetchError ? performance.now() - startedMs : fetched.durationMs;
      pace.lastResponseMs = ms;
      if (t.rendering === null) t.times.record(ms);
      openLanes();
      const settling = performance.now();
      await settle(t, u, fetched, result);
      // A page holds its lane while it renders: the batch rule counts that time too, so a lease takes about its target.
      if (t.rendering !== null) t.times.record(ms + performance.now() - settling);
    }
  };
  // One lane per connection; more open when `harvest control` raises the count during the batch
  // (fewer are enforced by the host gate's connection limit).
  const lanes = new Set<Promise<void>>();
  const openLanes = (): void => {
    while (lanes.size < t.job.politeness.perHostConnections && queue.length > 0) {
      const l: Promise<void> = lane().finally(() => lanes.delete(l));
      lanes.add(l);
    }
  };
  openLanes();
  while (lanes.size > 0) await Promise.all([...lanes]);
  return result;
}

/** Waits for the host gate's next opening; null when the worker is stopping. */
export async function slot(t: BatchTools, host: string, robots: RobotsPolicy, pace: { lastResponseMs: number; lastStartMs: number }): Promise<(() => void) | null> {
  const fixed = t.job.politeness.delayMs;
  const limits = { maxConnections: t.job.politeness.perHostConnections, delayMs: Math.max(fixed ?? ADAPTIVE_DELAY_FLOOR_MS, robots.crawlDelayMs) };
  for (;;) {
    if (t.signal.aborted) return null;
    const adaptive = fixed === null ? pace.lastStartMs + Math.min(2 * pace.lastResponseMs, MAX_ADAPTIVE_DELAY_MS) - Date.now() : 0;
    const got = adaptive > 0 ? adaptive : t.gates.tryAcquire(host, limits);
    if (typeof got === 'function') {
      pace.lastStartMs = Date.now();
      return got;
    }
    await sleep(got === Infinity ? GATE_POLL_MS : got, t.signal).catch(() => {});
  }
}

function skipped(u: LeasedUrl, reason: 'robots' | 'robots:unreachable', error: string | null): UrlOutcome {
  return { ...empty(u), state: 'skipped', skipReason: reason, error };
}

interface Settled {
  id: number;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  localPath: string | null;
  redirectTo: string | null;
  error: string | null;
  title: string | null;
  skipReason: null;
  fetchedAt: Date | null;
  attempts: number;
}

function empty(u: LeasedUrl): Settled {
  return {
    id: u.id,
    httpStatus: null,
    contentType: null,
    bytes: null,
    localPath: null,
    redirectTo: null,
    error: null,
    title: null,
    skipReason: null,
    fetchedAt: null,
    attempts: u.attempts,
  };
}

/** The outcome of one fetch: a retry, a failure, or the response archived. */
async function settle(t: BatchTools, u: LeasedUrl, fetched: FetchResponse | FetchError, result: BatchResult): Promise<void> {
  const attempt = u.attempts + 1;
  if (fetched instanceof FetchError && fetched.code === 'aborted') {
    result.outcomes.push({ id: u.id, state: 'released' });
    return;
  }
  result.fetched++;
  const waitMs = retryWaitMs(fetched instanceof FetchError ? fetched : fetched, attempt, t.retryBackoffMs);
  if (waitMs !== null && attempt <= t.job.fetch.maxRetries) {
    result.outcomes.push({ id: u.id, state: 'retry', attempts: attempt, retryInMs: waitMs });
    return;
  }
  if (fetched instanceof FetchError) {
    result.failures++;
    result.outcomes.push({ ...empty(u), state: 'failed', error: `${fetched.code}: ${fetched.message}${attemptsNote(attempt)}`, fetchedAt: new Date(), attempts: attempt });
    return;
  }
  result.bytes += fetched.body.length;
  result.outcomes.push(await archive(t, u, fetched, attempt, result));
}

/**
 * Records and saves one response: a leased URL's, or (`leased` false) one a rendered page asked for,
 * which a focused harvest does not judge (it is part of that page).
 */
export async function archive(t: BatchTools, u: LeasedUrl, res: FetchResponse, attempt: number, result: BatchResult, leased = true): Promise<UrlOutcome> {
  const base = { ...empty(u), httpStatus: res.status, contentType: res.contentType, bytes: res.body.length, fetchedAt: res.startedAt, attempts: attempt };
  if (res.status >= 300 && res.status < 400 && res.location !== null) {
    await t.warc?.writeExchange(exchangeFromFetch(res));
    return redirect(t, u, res, base, result);
  }
  const kind = res.status >= 200 && res.status < 300 ? documentKind(res.contentType, u.url) : 'other';
  if (kind === 'other') {
    await t.warc?.writeExchange(exchangeFromFetch(res));
    if (res.status < 200 || res.status >= 300) {
      result.failures++;
      return { ...base, state: 'http-error', error: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${attemptsNote(attempt)}` };
    }
    const localPath = localPathFor(u.url, res.contentType);
    const failure = await t.documents.write(localPath, res.body);
    if (failure !== null) return { ...base, state: 'failed', error: `cannot save as ${localPath}: ${failure.code}` };
    return { ...base, state: 'archived', localPath };
  }
  let body = res.body;
  if (t.rendering?.wants(u, res)) {
    // As in the local crawl (UrlProcessor): the copy is what the browser showed, the WARC keeps the response as fetched.
    const rendered = await t.rendering.render(t, u, res, result);
    if (rendered === 'aborted') return { id: u.id, state: 'released' };
    if ('failed' in rendered) {
      await t.warc?.writeExchange(exchangeFromFetch(res));
      result.failures++;
      return { ...base, state: 'failed', error: rendered.failed };
    }
    body = rendered.copy.html;
  }
  const focus = leased && kind === 'html' ? t.focus?.judge.request(u.score) : undefined;
  const doc = await t.documents.prepare({ kind, body, url: u.url, contentType: res.contentType, packOriginal: body !== res.body, ...(focus !== undefined && { focus }) });
  let saved = false;
  try {
    const at = await t.warc?.writeExchange(exchangeFromFetch(res));
    if (at !== undefined && doc.links.length > 0) {
      await t.warc!.writeMetadata({ url: res.url, date: res.startedAt, concurrentTo: at.recordId, outlinks: doc.links.map((l) => ({ url: l.url, kind: l.kind })) });
    }
    const judged = judge(t, u, doc, result);
    const { written, replan } = admitLinks(t, u, doc, result.discoveries, judged);
    const localPath = localPathFor(u.url, res.contentType);
    // The finishing pass rewrites a rendered page from its rendered DOM, not from the WARC's response.
    if (doc.original !== null) await writeRenderedOriginal(t.rendering!.store, localPath, doc.original);
    saved = true;
    const failure = await t.documents.save(doc, { localPath, written });
    if (failure !== null) return { ...base, state: 'failed', error: `cannot save as ${localPath}: ${failure.code}` };
    // The page limit counts what the local crawl counts: HTML documents saved.
    if (kind === 'html') result.pages++;
    if (judged !== null) result.focus!.pages.push({ urlId: u.id, score: u.score, ...judged, capture: res.startedAt.toISOString(), replan });
    return { ...base, state: 'archived', localPath, title: doc.title };
  } finally {
    if (!saved) t.documents.discard(doc);
  }
}

type Provisional = Pick<JudgedPage, 'analysis' | 'verdict'>;

/** A focused harvest's verdict on a page it scored, judged against the batch's memory (final at commit); else null. */
function judge(t: BatchTools, u: LeasedUrl, doc: PreparedTicket, result: BatchResult): Provisional | null {
  const analysis = doc.focus;
  if (t.focus === null || result.focus === null || analysis === undefined) return null;
  return { analysis, verdict: t.focus.judge.judge(u.id, u.score, analysis, result.focus.memory) };
}

/**
 * A document's links as discoveries, and where each of its references should point in the copy. A
 * judged page's links carry their queue score, or are pruned, as its verdict plans them; `replan`
 * plans them again should the commit's verdict differ.
 */
function admitLinks(
  t: BatchTools,
  u: LeasedUrl,
  doc: PreparedTicket,
  into: ClusterDiscovery[],
  judged: Provisional | null,
): { written: (string | null)[]; replan: JudgedPage['replan'] } {
  const parentInScope = t.admission.scope.inScope(u.url);
  const planned: { index: number; at: number; d: Discovery }[] = [];
  const written = doc.links.map((link, index) => {
    if (link.canonical === null) return null;
    const found: Discovery = {
      url: link.canonical,
      parentId: u.id,
      parentDepth: u.depth,
      sameDepth: false,
      via: link.kind,
      requisite: link.requisite,
      parentInScope,
      typeHint: link.typeHint,
      redirectHops: 0,
      pastLinkCap: index >= MAX_LINKS_QUEUED_PER_PAGE,
    };
    if (judged !== null) planned.push({ index, at: into.length, d: found });
    const d = t.admission.decide(judged === null ? found : { ...found, ...t.focus!.judge.link(judged.verdict, judged.analysis, index) });
    into.push(d);
    return t.admission.plannedTarget(d);
  });
  const replan = (v: PageVerdict) => {
    for (const p of planned) into[p.at] = t.admission.decide({ ...p.d, ...t.focus!.judge.link(v, judged!.analysis, p.index) });
  };
  return { written, replan };
}

function redirect(t: BatchTools, u: LeasedUrl, res: FetchResponse, base: Settled, result: BatchResult): UrlOutcome {
  const target = canonicalize(res.location!, u.url);
  const hops = u.redirectHops + 1;
  const out = { ...base, state: 'redirect' as const };
  if (target === null) return { ...out, error: `unusable redirect target: ${res.location!.slice(0, 200)}` };
  if (hops > t.job.fetch.maxRedirects) return { ...out, error: `more than ${t.job.fetch.maxRedirects} redirects` };
  // Seeds and their redirect chains are the only URLs at depth 0.
  if (u.depth === 0) {
    const added = t.admission.followSeedRedirect(target);
    if (added !== null) result.seedRedirects.push(added);
  }
  result.discoveries.push(
    t.admission.decide({
      url: target,
      parentId: u.id,
      parentDepth: u.depth,
      sameDepth: true,
      via: 'redirect',
      requisite: u.requisite,
      parentInScope: t.admission.scope.inScope(u.url),
      typeHint: u.typeHint,
      redirectHops: hops,
      // A hop keeps its source's place in a focused harvest's queue.
      ...(u.score !== null && { score: u.score }),
    }),
  );
  return { ...out, redirectTo: target };
}
