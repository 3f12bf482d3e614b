import type { PageResponse } from './types.js';

/**
 * The origin a request will be checked against: the page's, when the browser sent an Origin header
 * for a request to another origin (a cors-mode fetch, a font, `<img crossorigin>`); null otherwise.
 */
export function corsOrigin(url: string, requestHeaders: Record<string, string>): string | null {
  const origin = requestHeaders['origin']?.trim();
  if (origin === undefined) return null;
  try {
    return new URL(url).origin === origin ? null : origin;
  } catch {
    return origin;
  }
}

/**
 * Whether the browser may be handed `res` for a cross-origin request at all. Playwright's
 * route.fulfill adds `Access-Control-Allow-Origin: <origin>` with credentials to any fulfilled
 * response that has none (microsoft/playwright#12929), which would let a page read every response
 * cross-origin; so one without it is refused here, as the browser's own CORS check would. One
 * that has it is handed over as it is, and the browser checks it (origin, credentials).
 */
export function corsAllows(origin: string | null, res: PageResponse): boolean {
  if (origin === null) return true;
  return Object.keys(res.headers).some((k) => k.toLowerCase() === 'access-control-allow-origin');
}
