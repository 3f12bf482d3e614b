/** What a page asked for: the renderer hands each request to a broker instead of the network. */
export interface PageRequest {
  url: string;
  method: string;
  /** Playwright's resource type: document, stylesheet, image, media, font, script, fetch, xhr, ... */
  resourceType: string;
  /** A cross-origin request the browser will check against CORS headers (it sent an Origin header). */
  cors: boolean;
}

/** A response to give the page: the body already decoded (no Content-Encoding). */
export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A broker answers a request with a response, or refuses it (the page sees a network error). */
export type BrokerAnswer = { response: PageResponse } | { refused: string };

/**
 * The renderer's only way to the network: every request a page makes is answered by the broker
 * (in a crawl, from what was archived or through the crawl's own admission and fetcher).
 */
export interface RequestBroker {
  /** Should settle soon once `signal` is aborted (the render has ended). */
  answer(req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer>;
}

/** One page to render. */
export interface RenderTarget {
  url: string;
  /** The page's own response, already fetched: the first navigation is answered with it. */
  response: PageResponse;
  broker: RequestBroker;
  /** Aborting it abandons the render (a pause). */
  signal: AbortSignal;
}

/** How long a render may take and what it captures. */
export interface RenderPolicy {
  pageTimeoutMs: number;
  settleMs: number;
  screenshots: boolean;
}

export interface RenderedPage {
  /** The DOM as the browser showed it, scripts removed, serialized as HTML. */
  html: string;
  /** Where the page's scripts tried to take the browser (client-side redirects), in order. */
  navigations: string[];
  /** Addresses the page's scripts moved it to without loading a document (history.pushState, replaceState), in order. */
  routes: string[];
  /** PNG of the first screenful, THUMBNAIL_WIDTH x THUMBNAIL_HEIGHT (blank for a page never painted). */
  thumbnail: Buffer;
  /** PNG of the whole page, when the policy asks for it. */
  screenshot: Buffer | null;
  /** The page time limit cut loading or settling short: the capture is what the page showed then. */
  timedOut: boolean;
}

/** A rendered page's copy for the crawl: the DOM the browser showed, in place of the fetched body. */
export interface RenderedCopy {
  html: Buffer;
}

/** A render abandoned because its signal was aborted (a pause): nothing is recorded. */
export class RenderAbortedError extends Error {
  constructor() {
    super('render abandoned');
    this.name = 'RenderAbortedError';
  }
}

/** A render that failed, retry included: the reason goes into the page's record. */
export class RenderFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderFailedError';
  }
}

/** A page whose renderer process went over its memory cap and was stopped: not tried again (it would do the same). */
export class PageMemoryError extends RenderFailedError {
  constructor(rssMb: number, capMb: number) {
    super(`out of memory: the page's renderer process reached ${rssMb} MB, over the ${capMb} MB cap, and was stopped`);
    this.name = 'PageMemoryError';
  }
}
