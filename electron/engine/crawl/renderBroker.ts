import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADAPTIVE_DELAY_FLOOR_MS, type Job } from '../../../shared/job.js';
import { FetchError } from '../fetch/errors.js';
import type { Fetcher, FetchResponse } from '../fetch/fetcher.js';
import { foldHeaders } from '../fetch/headers.js';
import type { HostGates } from '../politeness/hostGate.js';
import { ALLOW_ALL, ROBOTS_USER_AGENT_TOKEN, robotsPolicyFrom, robotsUrlFor, type RobotsPolicy } from '../politeness/robots.js';
import { REQUISITES } from '../render/requestKinds.js';
import type { BrokerAnswer, PageRequest, PageResponse, RequestBroker } from '../render/types.js';
import type { Archive } from '../store/archive.js';
import type { QueuedRow, UrlRow } from '../store/catalogue.js';
import type { UrlCapture } from '../store/catalogueTypes.js';
import { canonicalize } from '../url/canonical.js';
import { readResponseHeaders } from '../warc/readResponse.js';
import type { RecordPlace } from '../warc/types.js';
import type { WarcWriter } from '../warc/writer.js';
import type { CrawlLimits } from './crawlLimits.js';
import { documentKind, unpackOriginal } from './documents.js';
import { readOriginal } from './finalize.js';
import type { Frontier } from './frontier.js';
import type { Lanes } from './lanes.js';
import type { RequestHeaders } from './requestHeaders.js';
import type { ResponseArchiver } from './responseArchiver.js';
import { fetchRobotsTxt } from './robotsFetch.js';

export interface BrokerParts {
  job: Job;
  archive: Archive;
  frontier: Frontier;
  archiver: ResponseArchiver;
  fetcher: Fetcher;
  /** The job's extra headers, cookies and credentials, per URL, as the crawl sends them. */
  requestHeaders: RequestHeaders;
  gates: HostGates;
  lanes: Lanes;
  limits: CrawlLimits;
  warc: WarcWriter | null;
  /** The crawl's requests on the wire, shown in progress and abandoned by a pause. */
  inFlight: Map<AbortController, string>;
  /** Lets the crawl dispatch again (a row given back, a slot freed). */
  wake: () => void;
  /** Stops the crawl: an error that is not one URL's (a full disk) met while answering a page. */
  fail: (e: unknown) => void;
}

/**
 * Answers the requests of pages rendered during a crawl from the crawl itself. A URL already
 * archived is answered from the archive (the mirror file, or a document's original); a new one is
 * admitted like any discovered link (scope, trap guards, limits), then fetched under the same
 * robots.txt rules and per-host politeness, recorded in the WARC and the catalogue, and saved, so
 * it is never fetched again. A URL the crawl is fetching at that moment is waited for. Anything
 * refused (out of scope, robots.txt, failed) reaches the page as a network error.
 */
export class RenderBroker {
  private readonly robots = new Map<string, Promise<RobotsPolicy | null>>();

  constructor(private readonly p: BrokerParts) {}

  /** The broker for one page's requests: what it admits is discovered from that page. */
  forPage(page: QueuedRow): RequestBroker {
    return {
      answer: (req, signal) =>
        this.answer(page, req, signal).catch((e: unknown) => {
          if (!(e instanceof FetchError)) this.p.fail(e);
          return { refused: (e as Error).message };
        }),
    };
  }

  /** A URL the page's scripts navigated to: queued as a link of the page, not fetched now. */
  discover(page: QueuedRow, url: string): void {
    const canonical = canonicalize(url);
    if (canonical === null) return;
    const c = this.p.archive.catalogue;
    c.transaction(() => {
      this.p.frontier.admit({
        url: canonical,
        parentId: page.id,
        parentDepth: page.depth,
        sameDepth: false,
        via: 'script-navigation',
        requisite: false,
        parentInScope: this.p.frontier.scope.inScope(page.url),
        typeHint: 'html',
        redirectHops: 0,
      });
    });
  }

  private async answer(page: QueuedRow, req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer> {
    if (req.method !== 'GET') return { refused: `${req.method} requests are not archived` };
    const url = canonicalize(req.url);
    if (url === null) return { refused: 'not an archivable URL' };
    const requisite = REQUISITES[req.resourceType];
    const { frontier } = this.p;
    const parentInScope = frontier.scope.inScope(page.url);
    const row = this.p.archive.catalogue.transaction(() =>
      frontier.admit({
        url,
        parentId: page.id,
        parentDepth: page.depth,
        sameDepth: false,
        via: requisite?.via ?? req.resourceType,
        // Data a page loads is part of the page (no depth or page limit) but only within the scope.
        requisite: requisite !== undefined || frontier.scope.inScope(url),
        parentInScope,
        typeHint: requisite?.typeHint ?? null,
        redirectHops: 0,
      }),
    );
    return this.answerFor(row, signal, 0);
  }

  private async answerFor(row: UrlRow, signal: AbortSignal, hops: number): Promise<BrokerAnswer> {
    const c = this.p.archive.catalogue;
    switch (row.state) {
      case 'archived':
        return this.stored(row);
      case 'redirect': {
        const target = row.redirect_to_id === null ? undefined : c.get(row.redirect_to_id);
        if (target === undefined || hops >= this.p.job.fetch.maxRedirects) return { refused: 'redirect not followed' };
        return this.answerFor(target, signal, hops + 1);
      }
      case 'http-error':
        return { response: { status: row.http_status ?? 404, headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(0) } };
      case 'failed':
        return { refused: 'failed' };
      case 'skipped':
        return { refused: row.skip_reason ?? 'skipped' };
      case 'queued': {
        if (!this.p.lanes.claim(row)) {
          // The crawl (or another page) is fetching it: its outcome is the answer.
          await abortable(this.p.lanes.leased.released(row.id), signal);
          const now = c.get(row.id);
          return now === undefined || now.state === 'queued' ? { refused: 'not fetched' } : this.answerFor(now, signal, hops);
        }
        try {
          return await this.fetchAndArchive(row, signal, hops);
        } finally {
          this.p.lanes.leased.delete(row.id);
          if (c.get(row.id)?.state === 'queued') this.p.lanes.siteHasWork(row.site);
          this.p.wake();
        }
      }
    }
  }

  private async fetchAndArchive(url: UrlRow, signal: AbortSignal, hops: number): Promise<BrokerAnswer> {
    const { archiver, limits } = this.p;
    const row = queuedRowOf(url);
    const policy = await this.robotsFor(url.site, signal);
    if (policy === null) return { refused: 'robots.txt unavailable' };
    if (!policy.isAllowed(row.url)) {
      archiver.skip(row, 'robots');
      return { refused: 'robots' };
    }
    // Unconditional: the browser needs the body. An unchanged answer is still recorded as a revisit.
    const c = this.p.archive.catalogue;
    const prev = c.currentCapture() > 1 ? c.previousCapture(row.id) : undefined;
    const res = await this.politely(new URL(url.site).host, policy, signal, (s) => this.p.fetcher.fetch(row.url, { signal: s, headers: this.p.requestHeaders.for(row.url) }), row.url).catch(
      (e: unknown) => {
        if (!(e instanceof FetchError)) throw e;
        // A transient failure stays queued: the crawl retries it in its turn.
        if (e.code === 'address') archiver.skip(row, 'address:private', e.message);
        else if (e.code !== 'aborted' && !e.retryable) archiver.failed(row, `${e.code}: ${e.message}`, prev);
        return null;
      },
    );
    if (res === null) return { refused: 'not fetched' };
    if (await archiver.archive(row, res, prev)) limits.pageSaved();
    limits.checkBytes();
    const after = c.get(row.id);
    if (after?.state === 'redirect') return this.answerFor(after, signal, hops);
    if (after?.state === 'queued') return { refused: 'not archived yet' };
    return { response: responseOf(res) };
  }

  /** Runs `request` once the host's politeness gate allows it, counted as in flight. */
  private async politely<T>(host: string, policy: RobotsPolicy, signal: AbortSignal, request: (s: AbortSignal) => Promise<T>, label: string): Promise<T> {
    const limits = {
      maxConnections: this.p.job.politeness.perHostConnections,
      // The adaptive delay's floor: its per-site part is the crawl's own (see Crawl.adaptiveWait).
      delayMs: Math.max(this.p.job.politeness.delayMs ?? ADAPTIVE_DELAY_FLOOR_MS, policy.crawlDelayMs),
    };
    let release: () => void;
    for (;;) {
      if (signal.aborted) throw new FetchError('aborted', 'render abandoned');
      const got = this.p.gates.tryAcquire(host, limits);
      if (typeof got !== 'number') {
        release = got;
        break;
      }
      await this.gateWait(got, signal);
    }
    const abort = new AbortController();
    const forward = () => abort.abort();
    signal.addEventListener('abort', forward, { once: true });
    this.p.inFlight.set(abort, label);
    try {
      return await request(abort.signal);
    } finally {
      signal.removeEventListener('abort', forward);
      this.p.inFlight.delete(abort);
      release();
    }
  }

  /** Waits `ms`, or until any slot is released when the host is full (Infinity). */
  private async gateWait(ms: number, signal: AbortSignal): Promise<void> {
    if (ms !== Infinity) {
      await sleep(ms, undefined, { signal }).catch(() => {});
      return;
    }
    let unsubscribe = () => {};
    await abortable(new Promise<void>((resolve) => (unsubscribe = this.p.gates.onRelease(resolve))), signal).catch(() => {});
    unsubscribe();
  }

  /**
   * The site's robots.txt policy: stored in the catalogue, or fetched (and stored) now. An
   * unavailable robots.txt is not stored here: the crawl asks again before giving the site up.
   */
  private robotsFor(site: string, signal: AbortSignal): Promise<RobotsPolicy | null> {
    if (!this.p.job.politeness.respectRobots) return Promise.resolve(ALLOW_ALL);
    const c = this.p.archive.catalogue;
    const stored = c.getRobots(site);
    if (stored) return Promise.resolve(robotsPolicyFrom(stored, robotsUrlFor(site), ROBOTS_USER_AGENT_TOKEN));
    let asked = this.robots.get(site);
    if (asked === undefined) {
      asked = this.politely(new URL(site).host, ALLOW_ALL, signal, (s) => fetchRobotsTxt(this.p.fetcher, this.p.warc, site, s), robotsUrlFor(site))
        .then((row) => {
          if (row === null || row.error !== null || (row.http_status ?? 0) >= 500) return null;
          if (!c.getRobots(site)) c.putRobots(site, row);
          return robotsPolicyFrom(row, robotsUrlFor(site), ROBOTS_USER_AGENT_TOKEN);
        })
        .catch((e: unknown) => {
          if (e instanceof FetchError) return null;
          throw e;
        })
        .finally(() => this.robots.delete(site));
      this.robots.set(site, asked);
    }
    return asked;
  }

  /**
   * An archived URL answered from the archive: the original of a document, the mirror file of
   * anything else, with the headers its response had (CORS and CORP included), so a cross-origin
   * read of it succeeds or fails as it did on the live web.
   */
  private async stored(row: UrlRow): Promise<BrokerAnswer> {
    if (row.local_path === null) return { refused: 'not in the mirror' };
    const { archive } = this.p;
    try {
      let body: Buffer;
      let place: RecordPlace | null;
      if (documentKind(row.content_type, row.url) === 'other') {
        body = await readFile(archive.mirror.absolutePath(row.local_path));
        place = newestRecord(archive.catalogue.capturesOf(row.url));
      } else {
        const original = archive.catalogue.getOriginal(row.id);
        if (original === undefined) return { refused: 'original not kept' };
        body = 'packed' in original ? unpackOriginal(original.packed) : await readOriginal(archive, original.record, original.contentEncoding);
        place = 'packed' in original ? null : original.record;
      }
      return { response: { status: row.http_status ?? 200, headers: await this.recordedHeaders(row, place), body } };
    } catch (e) {
      return { refused: `cannot read the archived copy: ${(e as Error).message}` };
    }
  }

  /**
   * The response's headers from its WARC record. Without a record (no WARC written) only its type:
   * no CORS header, so a cross-origin read fails rather than being allowed on a guess.
   */
  private async recordedHeaders(row: UrlRow, place: RecordPlace | null): Promise<Record<string, string>> {
    const headers = place === null ? {} : foldHeaders(await readResponseHeaders(this.p.archive.warcDir, place));
    if (headers['content-type'] === undefined && row.content_type !== null) headers['content-type'] = row.content_type;
    return headers;
  }
}

/**
 * The newest capture's response record. A revisit's is its original's, whose URL may differ: its
 * payload is the same bytes, so its headers reveal nothing the original's did not.
 */
function newestRecord(captures: readonly UrlCapture[]): RecordPlace | null {
  for (let i = captures.length - 1; i >= 0; i--) {
    const record = captures[i]!.record;
    if (record !== null) return record;
  }
  return null;
}

/** The row as the archiver takes it: the broker's fetch is the URL's first attempt. */
function queuedRowOf(r: UrlRow): QueuedRow {
  return { id: r.id, url: r.url, depth: r.depth, requisite: r.requisite, type_hint: r.type_hint, redirect_hops: r.redirect_hops, attempts: 0 };
}

function responseOf(res: FetchResponse): PageResponse {
  return { status: res.status, headers: res.headers, body: res.body };
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new FetchError('aborted', 'render abandoned'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new FetchError('aborted', 'render abandoned'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
