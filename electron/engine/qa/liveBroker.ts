import type { BrokerAnswer, PageRequest, PageResponse, RequestBroker } from '../render/types.js';

/** A live request that takes longer than this is given up (the reference then lacks it, as a browser would). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Fetches a URL from the live web as a browser would (redirects followed, bodies decoded). */
export async function fetchLive(url: string, userAgent: string, signal: AbortSignal): Promise<PageResponse> {
  const res = await fetch(url, {
    headers: { 'user-agent': userAgent },
    redirect: 'follow',
    signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => (headers[key] = value));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The reference's way to the network: the page as the site shows it now. Only http(s) GETs go out;
 * nothing is written to the archive.
 */
export class LiveBroker implements RequestBroker {
  constructor(private readonly userAgent: string) {}

  async answer(req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer> {
    if (req.method !== 'GET' || !/^https?:/i.test(req.url)) return { refused: 'not an http(s) GET' };
    try {
      return { response: await fetchLive(req.url, this.userAgent, signal) };
    } catch (e) {
      return { refused: (e as Error).message };
    }
  }
}
