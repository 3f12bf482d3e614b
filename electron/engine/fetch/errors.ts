import { ADDRESS_REFUSED } from './addressPolicy.js';
/**
 * Why a fetch produced no usable response. The engine records `code` and `message` per URL.
 *
 * invalid-url: not an absolute http(s) URL. timeout-connect / timeout-headers / timeout-body-idle:
 * the FetchSettings timers. deadline: the whole-request deadline. too-large: over maxResponseBytes,
 * on the wire or once decoded. decode: a Content-Encoding we could not undo. dns / tls / network:
 * the connection failed, or closed in the middle of a body (retried). protocol: the server's answer
 * was not valid HTTP/1.1 (a bad chunk size, no status line), never retried. aborted: cancelled
 * by the caller's signal or by Fetcher.close(). address: the host's address is on a private or
 * local network the job does not allow (see addressPolicy.ts), never retried.
 */
export type FetchErrorCode =
  | 'invalid-url'
  | 'timeout-connect'
  | 'timeout-headers'
  | 'timeout-body-idle'
  | 'deadline'
  | 'too-large'
  | 'decode'
  | 'dns'
  | 'tls'
  | 'protocol'
  | 'network'
  | 'address'
  | 'aborted';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** Whether trying the same request again may succeed (the Fetcher retries these itself). */
    readonly retryable = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'FetchError';
  }
}

/** The error for a fired AbortSignal: its reason when that is already a FetchError (deadline, close), else 'aborted'. */
export function abortError(signal: AbortSignal): FetchError {
  const reason: unknown = signal.reason;
  if (reason instanceof FetchError) return reason;
  return new FetchError('aborted', 'request aborted', false, { cause: reason });
}

/** Connection failures that tend to go away: resets, a dropped link, a DNS server hiccup. */
const TRANSIENT_SYSTEM_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN']);

/**
 * Names whatever undici or the socket threw. ECONNREFUSED, ENOTFOUND and unreachable hosts are
 * not retried: the host answered definitively, and retrying a dead host only multiplies the wait.
 */
export function classifyError(err: unknown): FetchError {
  if (err instanceof FetchError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = errorCode(err);
  const wrap = (fetchCode: FetchErrorCode, retryable: boolean): FetchError =>
    new FetchError(fetchCode, code ? `${message} (${code})` : message, retryable, { cause: err });

  switch (code) {
    case ADDRESS_REFUSED:
      return new FetchError('address', message, false, { cause: err });
    case 'UND_ERR_CONNECT_TIMEOUT':
      return wrap('timeout-connect', true);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return wrap('timeout-headers', true);
    case 'UND_ERR_BODY_TIMEOUT':
      return wrap('timeout-body-idle', true);
    case 'UND_ERR_SOCKET':
      return wrap('network', true);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return wrap('protocol', false);
    case 'UND_ERR_INVALID_ARG':
      return wrap('invalid-url', false);
    case 'UND_ERR_HEADERS_OVERFLOW':
      return wrap('protocol', false);
    case 'UND_ERR_ABORTED':
    case 'UND_ERR_DESTROYED':
    case 'UND_ERR_CLOSED':
    case 'ABORT_ERR':
      return wrap('aborted', false);
    case 'ENOTFOUND':
      return wrap('dns', false);
    case 'EAI_AGAIN':
      return wrap('dns', true);
  }
  // llhttp's complaints (no status line, a bad chunk size) often come without a code.
  if (err instanceof Error && err.name === 'HTTPParserError') return wrap('protocol', false);
  if (code === undefined) return wrap('network', false);
  if (code.startsWith('HPE_')) return wrap('protocol', false);
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) return wrap('tls', false);
  return wrap('network', TRANSIENT_SYSTEM_CODES.has(code));
}

/** Failures that say the host itself is not answering, before a word of any answer. */
const HOST_DOWN_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/** Whether `e` says nothing at the host took the connection (refused, unreachable, no answer to connect). */
export function isHostDown(e: FetchError): boolean {
  if (e.code === 'timeout-connect') return true;
  return e.code === 'network' && HOST_DOWN_CODES.has(errorCode(e.cause) ?? '');
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}
