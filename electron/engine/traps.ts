import type { SkipReason } from '../../shared/crawl.js';
import type { TrapGuards } from '../../shared/job.js';

function mostRepeatedSegmentCount(pathname: string): number {
  const counts = new Map<string, number>();
  let max = 0;
  for (const segment of pathname.split('/')) {
    // Empty segments ('//', the leading and trailing '/') are the slash guard's business.
    if (segment === '') continue;
    const n = (counts.get(segment) ?? 0) + 1;
    counts.set(segment, n);
    max = Math.max(max, n);
  }
  return max;
}

/**
 * Stateless crawler-trap guards over one canonical URL: the first one it trips, or null.
 * Query variants per path need a counter kept by the caller; see queryVariantKey.
 */
export function trapReason(canonicalUrl: string, guards: TrapGuards): SkipReason | null {
  if (canonicalUrl.length > guards.maxUrlLength) return 'trap:url-length';
  const { pathname, search } = new URL(canonicalUrl);
  if ((pathname.match(/\//g)?.length ?? 0) > guards.maxPathSlashes) return 'trap:path-slashes';
  if (mostRepeatedSegmentCount(pathname) > guards.maxSegmentRepeats) return 'trap:segment-repeats';
  const params = search.slice(1).split('&').filter((p) => p !== '');
  if (params.length > guards.maxQueryParams) return 'trap:query-params';
  return null;
}

/**
 * The URL without its query, or null when it has none: the caller counts distinct query strings per
 * key to catch generators such as endless calendars ('trap:query-variants').
 */
export function queryVariantKey(canonicalUrl: string): string | null {
  const url = new URL(canonicalUrl);
  if (url.search === '') return null;
  url.search = '';
  return url.href;
}
