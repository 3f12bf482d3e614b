import type { FetchResponse } from '../fetch/fetcher.js';
import type { WarcExchange } from './types.js';
import { withholdCredentials } from './withheld.js';

/**
 * What the writer needs from one fetch: the wire payload and the headers as sent (credentials
 * withheld) and received.
 */
export function exchangeFromFetch(res: FetchResponse): WarcExchange {
  const target = new URL(res.url);
  return {
    url: res.url,
    date: res.startedAt,
    ip: res.remoteAddress,
    httpVersion: res.httpVersion,
    status: res.status,
    statusText: res.statusText,
    responseHeaders: res.rawHeaders,
    payload: res.wireBody,
    requestHeaders: withholdCredentials(res.requestHeaders),
    method: 'GET',
    // The request target undici writes: path and query, never the fragment.
    path: target.pathname + target.search,
  };
}
