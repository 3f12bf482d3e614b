import diagnosticsChannel from 'node:diagnostics_channel';
import { parseRequestHead, type HeaderPair } from './headers.js';

/** What went over the wire for one request, which undici does not give dispatch handlers. */
export interface WireFacts {
  remoteAddress: string | null;
  /** The header block exactly as undici wrote it, including the host and connection it adds. */
  requestHeaders: HeaderPair[];
}

interface Expectation {
  origin: string;
  path: string;
  deliver: (facts: WireFacts) => void;
}

interface SendHeadersMessage {
  request: { origin: unknown; path: unknown };
  headers: string;
  socket: { remoteAddress?: string | undefined };
}

/** Published by undici's HTTP/1.1 client right before it writes a request's first byte. */
const SEND_HEADERS = 'undici:client:sendHeaders';

/**
 * Learns each request's socket address and sent headers from undici's `undici:client:sendHeaders`
 * diagnostics message. undici publishes it synchronously, right after calling the handler's
 * onRequestStart for the same request (client-h1 writeH1), so a handler calls `expect` there and the
 * next message fulfils it. Origin and path are checked too, because other undici copies in the
 * process (Node's own fetch) publish on the same channel.
 */
export class WireTap {
  #expected: Expectation | null = null;

  readonly #onSendHeaders = (message: unknown): void => {
    const expected = this.#expected;
    this.#expected = null;
    if (!expected || !isSendHeadersMessage(message)) return;
    if (message.request.origin !== expected.origin || message.request.path !== expected.path) return;
    expected.deliver({
      remoteAddress: message.socket.remoteAddress ?? null,
      requestHeaders: parseRequestHead(message.headers),
    });
  };

  constructor() {
    diagnosticsChannel.subscribe(SEND_HEADERS, this.#onSendHeaders);
  }

  expect(origin: string, path: string, deliver: (facts: WireFacts) => void): void {
    this.#expected = { origin, path, deliver };
  }

  close(): void {
    this.#expected = null;
    diagnosticsChannel.unsubscribe(SEND_HEADERS, this.#onSendHeaders);
  }
}

function isSendHeadersMessage(message: unknown): message is SendHeadersMessage {
  if (typeof message !== 'object' || message === null) return false;
  if (!('request' in message) || !('headers' in message) || !('socket' in message)) return false;
  const { request, headers, socket } = message;
  return (
    typeof request === 'object' && request !== null && 'origin' in request && 'path' in request &&
    typeof headers === 'string' &&
    typeof socket === 'object' && socket !== null
  );
}
