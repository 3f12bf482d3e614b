import { performance } from 'node:perf_hooks';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import type { AddressPolicy } from './addressPolicy.js';
import type { FetchSettings } from '../../../shared/job.js';
import { decodeContent } from './decompress.js';
import { abortError, classifyError, FetchError } from './errors.js';
import { exchange, type BodyRoom, type Exchange } from './exchange.js';
import { foldHeaders, type HeaderPair } from './headers.js';
import { keepParserBaseline } from './parserTier.js';
import { backoffMs, RETRY_STATUSES, retryAfterMs, sleep } from './retry-policy.js';
import { WireTap } from './wire-tap.js';

export interface FetchResponse {
  /** The URL requested, as given (one hop: the engine follows redirects itself). */
  url: string;
  status: number;
  statusText: string;
  /** Always '1.1': undici speaks HTTP/1.1 here and does not report the version a server answered with. */
  httpVersion: string;
  /** Lowercased names; repeats joined with ', ', except set-cookie, joined with '\n'. */
  headers: Record<string, string>;
  /** As received, in order, with the server's spelling (bytes read as latin1). */
  rawHeaders: HeaderPair[];
  /** The full Content-Type header value. */
  contentType: string | null;
  /** The raw Location header (for 3xx). */
  location: string | null;
  /** Payload bytes exactly as received, before content decoding (chunked framing removed). */
  wireBody: Buffer;
  /** Payload after undoing Content-Encoding. */
  body: Buffer;
  remoteAddress: string | null;
  /** The request headers as written on the wire, including the host and connection undici adds. */
  requestHeaders: HeaderPair[];
  /** When the attempt that produced this response started; earlier retried attempts are not counted. */
  startedAt: Date;
  /** From that attempt's start until its last body byte arrived. */
  durationMs: number;
  /** From that attempt's start until its response headers arrived (time to first byte, near enough). */
  headersMs: number;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  waitMs: number;
  /** e.g. 'HTTP 429' or 'network: read ECONNRESET (ECONNRESET)'. */
  reason: string;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Sent with this request after the fetcher's own headers (cookies, credentials). */
  headers?: readonly HeaderPair[];
  onRetry?: (info: RetryInfo) => void;
  /** Asked before a body over 1 MiB, on the wire or decoded, is held (see BodyRoom). */
  bodyRoom?: BodyRoom;
}

export interface FetcherOptions extends FetchSettings {
  userAgent: string;
  /** Most open connections to one origin; the engine's politeness works within this. */
  connectionsPerOrigin: number;
  /** First retry back-off, doubled on each further retry; default 1000 ms (tests shrink it). */
  backoffBaseMs?: number;
  /** Sent with every request after the fetcher's own (Accept-Language, From, the job's headers). */
  extraHeaders?: readonly HeaderPair[];
  /** The source address of every connection (a cluster worker on a multi-homed machine); the system's choice without it. */
  localAddress?: string;
  /** Which hosts may be reached on private and local networks; none: every address may. */
  addressPolicy?: AddressPolicy;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ACCEPT_ENCODING = 'gzip, deflate, br';
const DEFAULT_BACKOFF_BASE_MS = 1000;

/** HTTP GETs for one crawl over a shared keep-alive connection pool. */
export class Fetcher {
  #agent: Agent;
  #connections: number;
  readonly #tap = new WireTap();
  readonly #settings: FetcherOptions;
  readonly #requestHeaders: readonly HeaderPair[];
  /** One per fetch in progress, so close() can cancel them all. */
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(opts: FetcherOptions) {
    this.#settings = opts;
    this.#connections = opts.connectionsPerOrigin;
    this.#requestHeaders = [
      ['User-Agent', opts.userAgent],
      ['Accept', ACCEPT],
      ['Accept-Encoding', ACCEPT_ENCODING],
      ...(opts.extraHeaders ?? []),
    ];
    keepParserBaseline();
    this.#agent = this.#newAgent(opts.connectionsPerOrigin);
  }

  #newAgent(connections: number): Agent {
    const opts = this.#settings;
    return new Agent({
      connections,
      // One request at a time on a connection, kept alive between requests (0 would turn keep-alive off).
      pipelining: 1,
      connect: { timeout: opts.connectTimeoutMs, ...(opts.addressPolicy !== undefined && { lookup: opts.addressPolicy.lookup }) },
      ...(opts.localAddress !== undefined && { localAddress: opts.localAddress }),
      headersTimeout: opts.headersTimeoutMs,
      // An idle timer: undici restarts it on every chunk, hence the deadline in exchange().
      bodyTimeout: opts.bodyIdleTimeoutMs,
    });
  }

  /**
   * Changes the most connections to one origin while fetches run: later requests go through a new
   * pool; the old one finishes the requests it has and closes its connections.
   */
  setConnectionsPerOrigin(connections: number): void {
    if (this.#closed || connections === this.#connections) return;
    const old = this.#agent;
    this.#agent = this.#newAgent(connections);
    this.#connections = connections;
    void old.close().catch(() => {});
  }

  /** One HTTP GET, no redirect following, with retries for 429/503 (honouring Retry-After) and transient network errors. */
  async fetch(url: string, opts: FetchOptions = {}): Promise<FetchResponse> {
    if (this.#closed) throw new FetchError('aborted', 'fetcher is closed');
    const target = parseTarget(url);
    // A literal address is connected to without a lookup, so it is checked here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const refused = isIP(literal) !== 0 ? (this.#settings.addressPolicy?.refusal(literal, literal) ?? null) : null;
    if (refused !== null) throw new FetchError('address', refused);
    const scope = new AbortController();
    const { signal } = opts;
    const forwardAbort = (): void => scope.abort(signal?.reason);
    if (signal?.aborted) forwardAbort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    this.#inFlight.add(scope);
    try {
      const headers = opts.headers?.length ? [...this.#requestHeaders, ...opts.headers] : this.#requestHeaders;
      return await this.#fetchWithRetries(url, target, scope.signal, opts, headers);
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
      this.#inFlight.delete(scope);
    }
  }

  /** Cancels fetches in progress ('aborted') and closes every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const scope of this.#inFlight) scope.abort(new FetchError('aborted', 'fetcher closed'));
    this.#tap.close();
    await this.#agent.destroy();
  }

  async #fetchWithRetries(
    url: string,
    target: URL,
    signal: AbortSignal,
    { onRetry, bodyRoom }: FetchOptions,
    headers: readonly HeaderPair[],
  ): Promise<FetchResponse> {
    const { maxRetries } = this.#settings;
    for (let attempt = 1; ; attempt++) {
      const startedAt = new Date();
      const start = performance.now();
      const outcome = await this.#exchange(target, signal, headers, bodyRoom);
      const durationMs = performance.now() - start;
      const waitMs = attempt <= maxRetries ? this.#retryWait(outcome, attempt) : null;
      if (waitMs === null) {
        if (outcome instanceof FetchError) throw attempt > 1 ? gaveUp(outcome, attempt) : outcome;
        return this.#toResponse(url, outcome, startedAt, outcome.headersAtMs - start, durationMs, headers, bodyRoom);
      }
      onRetry?.({ attempt, waitMs, reason: describe(outcome) });
      await sleep(waitMs, signal);
    }
  }

  async #exchange(target: URL, signal: AbortSignal, headers: readonly HeaderPair[], bodyRoom: BodyRoom | undefined): Promise<Exchange | FetchError> {
    try {
      return await exchange(this.#agent, this.#tap, {
        target,
        headers,
        deadlineMs: this.#settings.deadlineMs,
        maxResponseBytes: this.#settings.maxResponseBytes,
        signal,
        ...(bodyRoom && { bodyRoom }),
      });
    } catch (err) {
      // An abort during the exchange must not be retried, whatever undici made of it.
      return signal.aborted ? abortError(signal) : classifyError(err);
    }
  }

  /** How long to wait before the given retry (1-based), or null when the outcome is final. */
  #retryWait(outcome: Exchange | FetchError, retry: number): number | null {
    const backoff = (): number =>
      backoffMs(retry, this.#settings.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS);
    if (outcome instanceof FetchError) return outcome.retryable ? backoff() : null;
    if (!RETRY_STATUSES.has(outcome.status)) return null;
    return retryAfterMs(foldHeaders(outcome.rawHeaders)['retry-after']) ?? backoff();
  }

  async #toResponse(
    url: string,
    ex: Exchange,
    startedAt: Date,
    headersMs: number,
    durationMs: number,
    sent: readonly HeaderPair[],
    bodyRoom: BodyRoom | undefined,
  ): Promise<FetchResponse> {
    const headers = foldHeaders(ex.rawHeaders);
    const body = await this.#decode(ex.wireBody, headers['content-encoding'] ?? null, bodyRoom);
    return {
      url,
      status: ex.status,
      statusText: ex.statusText,
      httpVersion: '1.1',
      headers,
      rawHeaders: ex.rawHeaders,
      contentType: headers['content-type'] ?? null,
      location: headers['location'] ?? null,
      wireBody: ex.wireBody,
      body,
      remoteAddress: ex.wire?.remoteAddress ?? null,
      requestHeaders: ex.wire?.requestHeaders ?? [...sent],
      startedAt,
      durationMs,
      headersMs,
    };
  }

  /**
   * Undoes the Content-Encoding. With bodyRoom, a body that decodes past 1 MiB (a compression bomb
   * is a few KB on the wire) is held only once there is room for its decoded size.
   */
  #decode(wire: Buffer, contentEncoding: string | null, bodyRoom: BodyRoom | undefined): Promise<Buffer> {
    return decodeContent(wire, contentEncoding, this.#settings.maxResponseBytes, bodyRoom && { room: bodyRoom });
  }
}

function parseTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch (err) {
    throw new FetchError('invalid-url', `not a URL: ${url}`, false, { cause: err });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchError('invalid-url', `not an http(s) URL: ${url}`);
  }
  return target;
}

function describe(outcome: Exchange | FetchError): string {
  return outcome instanceof FetchError ? `${outcome.code}: ${outcome.message}` : `HTTP ${outcome.status}`;
}

/** The last attempt's error, saying how many attempts were made. */
function gaveUp(last: FetchError, attempts: number): FetchError {
  return new FetchError(last.code, `${last.message} (gave up after ${attempts} attempts)`, last.retryable, {
    cause: last,
  });
}
