import type { SkipReason, UrlState } from '../../shared/crawl.js';

/** The words the screens use for URL outcomes and skip reasons (the CLI prints the raw names). */
export const STATE_LABELS: Record<UrlState, string> = {
  queued: 'queued',
  archived: 'archived',
  redirect: 'redirect',
  'http-error': 'HTTP error',
  failed: 'failed',
  skipped: 'skipped',
};

export const SKIP_LABELS: Record<SkipReason, string> = {
  scope: 'Out of scope',
  robots: 'robots.txt',
  'robots:unreachable': 'robots.txt unreachable',
  'trap:url-length': 'Trap: URL too long',
  'trap:path-slashes': 'Trap: too many slashes',
  'trap:segment-repeats': 'Trap: repeated segment',
  'trap:query-params': 'Trap: too many parameters',
  'trap:query-variants': 'Trap: too many query variants',
  'focus:off-topic': 'Off-topic link (focused harvest)',
  'address:private': 'Private network address',
  'limit:depth': 'Limit: depth',
  'limit:pages': 'Limit: pages',
  'limit:bytes': 'Limit: size',
  'limit:duration': 'Limit: duration',
  'limit:links-per-page': 'Limit: links per page',
};
