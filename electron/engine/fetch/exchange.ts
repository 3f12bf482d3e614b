import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { abortError, classifyError, FetchError } from './errors.js';
import { foldHeaders, rawHeaderPairs, type HeaderPair } from './headers.js';
import type { WireFacts, WireTap } from './wire-tap.js';

export interface ExchangeRequest {
  target: URL;
  headers: readonly HeaderPair[];
  /** Whole-exchange deadline: catches servers that drip bytes under every idle timer. */
  deadlineMs: number;
  /** Most payload bytes accepted on the wire (before content decoding). */
  maxResponseBytes: number;
  signal: AbortSignal;
  /** Asked before a body over LARGE_BODY_BYTES is held (see BodyRoom); the deadline stands still meanwhile. */
  bodyRoom?: BodyRoom;
}

/**
 * Waits until the crawl has memory for a large body: its size when known, null when not. A body
 * is only held in memory (decoded, copied, parsed), so a few large ones at once are what peak memory is.
 */
export type BodyRoom = (bytes: number | null) => Promise<void>;

/** Bodies up to this size are held without asking for room: nearly every page and file. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** One GET's answer as received: nothing decoded, nothing retried. */
export interface Exchange {
  status: number;
  statusText: string;
  rawHeaders: HeaderPair[];
  wireBody: Buffer;
  /** Null only if undici's diagnostics message was missed. */
  wire: WireFacts | null;
  /** performance.now() when the final status line and headers arrived. */
  headersAtMs: number;
}

/** Sends one GET through the dispatcher and collects the whole response, within the request's limits. */
export function exchange(dispatcher: Dispatcher, tap: WireTap, request: ExchangeRequest): Promise<Exchange> {
  const { target, deadlineMs, signal } = request;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    let deadline: NodeJS.Timeout | undefined;
    let leftMs = deadlineMs;
    let armedAt = 0;
    const arm = (): void => {
      armedAt = performance.now();
      deadline = setTimeout(() => handler.cancel(new FetchError('deadline', `no complete response within ${deadlineMs} ms`)), leftMs);
    };
    // Time spent waiting for room is the crawl's, not the server's: the deadline stops meanwhile.
    const stopDeadline = (): void => {
      clearTimeout(deadline);
      leftMs = Math.max(0, leftMs - (performance.now() - armedAt));
    };
    const onAbort = (): void => handler.cancel(abortError(signal));
    const handler = new ExchangeHandler(tap, request, (outcome) => {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      if (outcome instanceof FetchError) reject(outcome);
      else afterConnectionRelease(() => resolve(outcome));
    }, { stop: stopDeadline, restart: arm });
    arm();
    signal.addEventListener('abort', onAbort, { once: true });
    dispatcher.dispatch(
      { origin: target.origin, path: pathOf(target), method: 'GET', headers: request.headers.flat() },
      handler,
    );
  });
}

/**
 * Runs `then` once undici can reuse the connection. With pipelining 1 it marks a kept-alive
 * connection free only in a setImmediate queued after the response ends (client-h1
 * onMessageComplete); a request dispatched before that makes the pool open a second connection.
 * An immediate queued from inside an immediate runs on the next loop turn, after undici's.
 */
function afterConnectionRelease(then: () => void): void {
  setImmediate(() => setImmediate(then));
}

function pathOf(target: URL): string {
  return target.pathname + target.search;
}

/**
 * undici handler for one exchange. Settles exactly once: on the response's end, on undici's error,
 * or on cancel (deadline, abort signal, size limit), whichever comes first.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  /** Set when cancelled while still queued in the pool: undici starts it later, and we stop it there. */
  #cancelledWith: FetchError | null = null;
  #settled = false;
  #status = 0;
  #statusText = '';
  #rawHeaders: HeaderPair[] = [];
  #chunks: Buffer[] = [];
  /** A declared length over LARGE_BODY_BYTES: the body is copied into place as it comes (see #keep). */
  #declared: number | null = null;
  #whole: Buffer | null = null;
  #received = 0;
  #wire: WireFacts | null = null;
  #headersAtMs = 0;
  /** Whether room was asked for this body (once is enough: the whole exchange keeps it). */
  #roomAsked = false;

  constructor(
    private readonly tap: WireTap,
    private readonly request: ExchangeRequest,
    private readonly finish: (outcome: Exchange | FetchError) => void,
    private readonly deadline: { stop: () => void; restart: () => void },
  ) {}

  cancel(error: FetchError): void {
    if (this.#settled) return;
    this.#cancelledWith = error;
    this.#controller?.abort(error);
    this.#settle(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#cancelledWith) {
      controller.abort(this.#cancelledWith);
      return;
    }
    // undici may start a request again after a failed attempt on a pipelined socket: start clean.
    this.#status = 0;
    this.#chunks = [];
    this.#declared = null;
    this.#whole = null;
    this.#received = 0;
    this.#wire = null;
    this.tap.expect(this.request.target.origin, pathOf(this.request.target), (facts) => {
      this.#wire = facts;
    });
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    if (statusCode < 200) return; // 1xx interim responses (e.g. 103 Early Hints) precede the real one
    this.#status = statusCode;
    this.#headersAtMs = performance.now();
    this.#statusText = statusMessage ?? '';
    this.#rawHeaders = rawHeaderPairs(controller.rawHeaders ?? headers);
    const declared = Number(headers['content-length']);
    if (declared > this.request.maxResponseBytes) {
      this.#abort(controller, tooLarge(`Content-Length ${declared}`, this.request.maxResponseBytes));
    } else if (declared > LARGE_BODY_BYTES) {
      this.#declared = declared;
      this.#askRoom(controller, declared);
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#received += chunk.length;
    if (this.#received > this.request.maxResponseBytes) {
      this.#abort(controller, tooLarge(`body passed ${this.#received} bytes`, this.request.maxResponseBytes));
      return;
    }
    this.#keep(chunk);
    if (this.#received > LARGE_BODY_BYTES) this.#askRoom(controller, null);
  }

  /**
   * A body of a declared large length is copied into place as it comes: its pieces joined at the
   * end held it twice at once. Anything past the declared length (undici stops there) would follow.
   */
  #keep(chunk: Buffer): void {
    if (this.#declared !== null) this.#whole ??= Buffer.allocUnsafe(this.#declared);
    const whole = this.#whole;
    const at = this.#received - chunk.length;
    const fits = whole === null ? 0 : Math.max(0, Math.min(chunk.length, whole.length - at));
    if (whole !== null && fits > 0) chunk.copy(whole, at, 0, fits);
    if (fits < chunk.length) this.#chunks.push(fits === 0 ? chunk : chunk.subarray(fits));
  }

  /** Pauses the body until the crawl has room for it (see BodyRoom). */
  #askRoom(controller: Dispatcher.DispatchController, bytes: number | null): void {
    const room = this.request.bodyRoom;
    if (room === undefined || this.#roomAsked) return;
    this.#roomAsked = true;
    controller.pause();
    this.deadline.stop();
    room(bytes).then(
      () => {
        if (this.#settled) return;
        this.deadline.restart();
        controller.resume();
      },
      (e: unknown) => this.#abort(controller, e instanceof FetchError ? e : classifyError(e)),
    );
  }

  onResponseEnd(): void {
    this.#settle({
      status: this.#status,
      statusText: this.#statusText,
      rawHeaders: this.#rawHeaders,
      wireBody: this.#body(),
      wire: this.#wire,
      headersAtMs: this.#headersAtMs,
    });
  }

  /** The body received: in place, or its pieces joined. */
  #body(): Buffer {
    const whole = this.#whole;
    if (whole === null) return Buffer.concat(this.#chunks, this.#received);
    const inPlace = Math.min(this.#received, whole.length);
    return this.#chunks.length === 0 ? whole.subarray(0, inPlace) : Buffer.concat([whole.subarray(0, inPlace), ...this.#chunks], this.#received);
  }

  /** undici calls this without a controller when the request failed before it started. */
  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#settle(this.#truncated(error) ?? classifyError(error));
  }

  /**
   * A connection closed in the middle of a body (fewer bytes than its Content-Length, an unfinished
   * chunk). Transient, as a reset is: a server restarting or a reset that the kernel reported as an
   * orderly close (the two race) looks just like this, and the next attempt usually gets it whole.
   */
  #truncated(error: Error): FetchError | null {
    if (this.#status === 0 || (error as { code?: unknown }).code !== 'UND_ERR_SOCKET') return null;
    const declared = foldHeaders(this.#rawHeaders)['content-length'];
    const framing = declared !== undefined ? `Content-Length ${declared}` : 'chunked framing';
    return new FetchError('network', `connection closed after ${this.#received} bytes of the body (${framing}): ${error.message}`, true, {
      cause: error,
    });
  }

  #abort(controller: Dispatcher.DispatchController, error: FetchError): void {
    controller.abort(error);
    this.#settle(error);
  }

  #settle(outcome: Exchange | FetchError): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#chunks = [];
    this.#whole = null;
    this.finish(outcome);
  }
}

function tooLarge(what: string, limit: number): FetchError {
  return new FetchError('too-large', `${what}, over the ${limit}-byte limit`);
}
