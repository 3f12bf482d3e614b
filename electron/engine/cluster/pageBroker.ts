import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { documentKind } from '../crawl/documents.js';
import { FetchError } from '../fetch/errors.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { RobotsPolicy } from '../politeness/robots.js';
import { REQUISITES } from '../render/requestKinds.js';
import type { BrokerAnswer, PageRequest, PageResponse, RequestBroker } from '../render/types.js';
import { MIRROR_DIR } from '../store/archiveFolder.js';
import { canonicalize } from '../url/canonical.js';
import { resolveInside } from '../url/localPath.js';
import type { ClusterDiscovery } from './admission.js';
import type { BatchResult } from './batchCommit.js';
import { archive, slot, type BatchTools } from './batchRun.js';
import { isConnectionLoss } from './dbLink.js';
import type { LeasedUrl } from './coordination.js';

export interface PageBrokerParts {
  db: pg.Pool;
  /** The shared store, whose mirror/ answers for files already archived. */
  store: string;
  /** A site's robots.txt policy as the worker keeps it (fetched and saved for every worker when new). */
  robotsFor: (site: string) => Promise<RobotsPolicy>;
  /** Stops the worker: an error that is not one URL's (a full disk) met while answering a page. */
  fail: (e: unknown) => void;
  /** Documents this worker archived for its pages, to answer the next batches' pages. */
  recent: RecentDocuments;
}

/** How much of the documents (stylesheets, frames) a worker's pages asked for it keeps to answer again. */
const RECENT_BYTES = 8 * 1024 * 1024;

/**
 * The documents a worker's rendered pages asked for, newest kept within RECENT_BYTES: the pages of
 * the next batches ask for the same stylesheets, whose originals are otherwise only in the WARC
 * (the mirror holds their rewritten copies).
 */
export class RecentDocuments {
  private readonly byUrl = new Map<string, PageResponse>();
  private bytes = 0;

  get(url: string): PageResponse | undefined {
    return this.byUrl.get(url);
  }

  put(url: string, res: PageResponse): void {
    if (res.body.length > RECENT_BYTES || this.byUrl.has(url)) return;
    this.byUrl.set(url, res);
    this.bytes += res.body.length;
    for (const [oldest, r] of this.byUrl) {
      if (this.bytes <= RECENT_BYTES) break;
      this.byUrl.delete(oldest);
      this.bytes -= r.body.length;
    }
  }
}

interface KnownUrl {
  state: string;
  local_path: string | null;
  content_type: string | null;
  http_status: number | null;
}

/** What one batch's pages asked for, by URL: a resource several pages load is fetched once. */
export type BatchAnswers = Map<string, Promise<BrokerAnswer>>;

/**
 * Answers a rendered page's requests in a cluster worker, as the local RenderBroker does from its
 * catalogue: each URL admitted like a discovered link of the page (scope, trap guards, requisite
 * rule) and reported with the batch; one already archived by any worker answered from the shared
 * mirror; anything else fetched under robots.txt and this worker's host gate, recorded in its WARC,
 * saved, and its outcome committed with the batch (see BatchResult.pageRequests). Refused requests
 * reach the page as network errors. An archived document (a stylesheet) is answered from
 * RecentDocuments, else fetched again for the browser only: its original is in some worker's WARC,
 * which only the export indexes.
 */
export class PageBroker implements RequestBroker {
  private readonly pace = new Map<string, { lastResponseMs: number; lastStartMs: number }>();

  constructor(
    private readonly t: BatchTools,
    private readonly p: PageBrokerParts,
    private readonly page: LeasedUrl,
    private readonly result: BatchResult,
    private readonly answers: BatchAnswers,
  ) {}

  answer(req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer> {
    return this.decide(req, signal).catch((e: unknown) => {
      if (!(e instanceof FetchError)) this.p.fail(e);
      return { refused: (e as Error).message };
    });
  }

  private async decide(req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer> {
    if (req.method !== 'GET') return { refused: `${req.method} requests are not archived` };
    const url = canonicalize(req.url);
    if (url === null) return { refused: 'not an archivable URL' };
    const kind = REQUISITES[req.resourceType];
    const { admission } = this.t;
    const d = admission.decide({
      url,
      parentId: this.page.id,
      parentDepth: this.page.depth,
      sameDepth: false,
      via: kind?.via ?? req.resourceType,
      // Data a page loads is part of the page (no depth or page limit) but only within the scope.
      requisite: kind !== undefined || admission.scope.inScope(url),
      parentInScope: admission.scope.inScope(this.page.url),
      typeHint: kind?.typeHint ?? null,
      redirectHops: 0,
    });
    this.result.discoveries.push(d);
    return d.skipReason === null ? this.once(d, req.cors, signal, 0) : { refused: d.skipReason };
  }

  /**
   * One answer per URL and batch, apart for CORS requests (answered with headers); a refusal is not
   * kept (the page asking may have been abandoned).
   */
  private once(d: ClusterDiscovery, cors: boolean, signal: AbortSignal, hops: number): Promise<BrokerAnswer> {
    const key = cors ? `cors ${d.url}` : d.url;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.fetched(d, cors, signal, hops);
      this.answers.set(key, answer);
      const settled = answer;
      settled.then(
        (a) => ('refused' in a ? this.answers.delete(key) : undefined),
        () => this.answers.delete(key),
      );
    }
    return answer;
  }

  private async fetched(d: ClusterDiscovery, cors: boolean, signal: AbortSignal, hops: number): Promise<BrokerAnswer> {
    const known = await this.known(d.url);
    const archived = known?.state === 'archived';
    if (archived) {
      const recent = this.p.recent.get(d.url);
      // The mirror keeps no headers, which a CORS request is answered by: it is fetched again.
      const stored = recent !== undefined ? { response: recent } : cors ? null : await this.fromMirror(d.url, known);
      if (stored !== null) return stored;
    }
    const robots = await this.p.robotsFor(d.site);
    if (!robots.isAllowed(d.url)) return { refused: robots.unavailable ?? 'robots' };
    const host = new URL(d.url).host;
    const pace = this.pace.get(host) ?? { lastResponseMs: 0, lastStartMs: 0 };
    this.pace.set(host, pace);
    const release = await slot(this.t, host, robots, pace);
    if (release === null) return { refused: 'worker stopping' };
    let res: FetchResponse;
    try {
      res = await this.t.fetcher.fetch(d.url, { signal, headers: this.t.headers.for(d.url) });
      pace.lastResponseMs = res.durationMs;
    } finally {
      release();
    }
    this.result.fetched++;
    this.result.bytes += res.body.length;
    const response = { status: res.status, headers: res.headers, body: res.body };
    const document = res.status >= 200 && res.status < 300 && documentKind(res.contentType, d.url) !== 'other';
    if (archived) {
      if (document) this.p.recent.put(d.url, response);
      return { response };
    }
    // Its links' parent is the page: the URL has no row id until the batch commits.
    const as: LeasedUrl = { id: this.page.id, url: d.url, depth: d.depth, requisite: d.requisite, typeHint: d.typeHint, redirectHops: d.redirectHops, attempts: 0, score: d.score };
    const outcome = await archive(this.t, as, res, 1, this.result, false);
    this.result.pageRequests.push({ url: d.url, outcome });
    if (outcome.state === 'archived' && document) this.p.recent.put(d.url, response);
    if (outcome.state !== 'redirect') return { response };
    if (outcome.redirectTo === null || hops >= this.t.job.fetch.maxRedirects) return { refused: 'redirect not followed' };
    const target = this.t.admission.decide({
      url: outcome.redirectTo,
      parentId: this.page.id,
      parentDepth: d.depth,
      sameDepth: true,
      via: 'redirect',
      requisite: d.requisite,
      parentInScope: this.t.admission.scope.inScope(d.url),
      typeHint: d.typeHint,
      redirectHops: d.redirectHops + 1,
    });
    return target.skipReason === null ? this.once(target, cors, signal, hops + 1) : { refused: target.skipReason };
  }

  /**
   * The URL's row; while the database is out, undefined (not known): the page's request is fetched
   * rather than the worker stopped, and the batch commit, tried again until the database answers,
   * records it only on a row still queued (one archived meanwhile keeps its outcome).
   */
  private async known(url: string): Promise<KnownUrl | undefined> {
    try {
      return (await this.p.db.query<KnownUrl>('SELECT state, local_path, content_type, http_status FROM urls WHERE url = $1', [url])).rows[0];
    } catch (e) {
      if (isConnectionLoss(e)) return undefined;
      throw e;
    }
  }

  /**
   * A file (not a document) some worker archived already, read from the shared mirror, for a
   * request the browser makes without CORS: only its type is known, and no other header is needed.
   */
  private async fromMirror(url: string, row: KnownUrl): Promise<BrokerAnswer | null> {
    if (row.local_path === null || documentKind(row.content_type, url) !== 'other') return null;
    try {
      const body = await readFile(resolveInside(path.join(this.p.store, MIRROR_DIR), row.local_path));
      const headers: Record<string, string> = row.content_type === null ? {} : { 'content-type': row.content_type };
      return { response: { status: row.http_status ?? 200, headers, body } };
    } catch {
      // Not (yet) in the mirror as the row says: fetched instead.
      return null;
    }
  }
}
