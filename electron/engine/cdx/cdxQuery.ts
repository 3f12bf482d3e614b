import { getSurt } from 'warcio';
import type { CatalogueStore } from '../store/catalogueStore.js';
import { canonicalize } from '../url/canonical.js';

/** How a query URL selects captures, as pywb's CDX server's matchType. */
export const MATCH_TYPES = ['exact', 'prefix', 'host', 'domain'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** One capture as pywb's CDX server gives it (its field names; numbers as strings, as pywb writes them). */
export interface CdxLine {
  urlkey: string;
  timestamp: string;
  url: string;
  mime: string;
  status: string;
  digest: string;
  length: string;
  offset: string;
  filename: string;
}

/**
 * pywb's `sort`: ascending by `urlkey timestamp` (the default), its reverse, or (an exact query
 * only) by nearness to `closest`.
 */
export const CDX_SORTS = ['default', 'reverse', 'closest'] as const;
export type CdxSort = (typeof CDX_SORTS)[number];

export interface CdxQuery {
  url: string;
  match: MatchType;
  sort?: CdxSort;
  /** For sort=closest: 1 to 14 digits (yyyyMMddHHmmss). */
  closest?: string;
  /** 1 to 14 digits (yyyyMMddHHmmss), inclusive bounds as pywb reads them. */
  from?: string;
  to?: string;
  limit?: number;
}

export class CdxQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CdxQueryError';
  }
}

interface Row {
  url: string;
  fetched_at: string;
  content_type: string | null;
  http_status: number | null;
  payload_digest: string | null;
  warc_file: string;
  warc_offset: number;
  warc_length: number;
}

/**
 * The captures of an archive that match a query, from its catalogue: every URL capture whose
 * payload has a WARC record, with the record that holds it (for a revisit, its original's
 * response, which is what a replay reads), in pywb's order: by `urlkey timestamp` as bytes
 * (SURT order: hosts reversed, `http` and `https` of a host together), reversed with
 * sort=reverse, nearest to `closest` first with sort=closest. Sorted a host at a time, so memory
 * holds one host's captures.
 */
export function* cdxLines(c: CatalogueStore, q: CdxQuery): Generator<CdxLine> {
  const target = canonicalize(q.url.includes('://') ? q.url : `http://${q.url}`);
  if (target === null) throw new CdxQueryError(`not a URL: ${q.url}`);
  const sort = q.sort ?? 'default';
  if (sort === 'closest' && q.match !== 'exact') throw new CdxQueryError('sort=closest is for an exact query (matchType=exact)');
  if (sort === 'closest' && q.closest === undefined) throw new CdxQueryError('sort=closest needs a closest timestamp');
  const closest = q.closest === undefined ? null : cdxTime(isoBound(q.closest, '0'));
  const host = new URL(target).hostname;
  const where =
    q.match === 'exact'
      ? { sql: 'u.url = @url', keep: () => true }
      : q.match === 'prefix'
        ? { sql: "u.url >= @url AND u.url < @url || char(1114111)", keep: () => true }
        : { sql: "u.site LIKE '%' || @host || '%'", keep: (site: string) => hostMatches(new URL(site).hostname, host, q.match === 'domain') };
  const params = { url: target, host, from: q.from === undefined ? '' : isoBound(q.from, '0'), to: q.to === undefined ? '9999' : isoBound(q.to, '9') };
  const matching = `FROM url_captures k JOIN urls u ON u.id = k.url_id
       WHERE ${where.sql} AND k.warc_file IS NOT NULL AND k.fetched_at >= @from AND k.fetched_at <= @to`;
  // Sites (origins) by the host part of their urlkey: an origin's http and https are one host.
  const hosts = new Map<string, string[]>();
  for (const { site } of c.sqlite.prepare(`SELECT DISTINCT u.site ${matching}`).iterate(params) as IterableIterator<{ site: string }>) {
    if (!where.keep(site)) continue;
    const key = hostKey(site);
    hosts.set(key, [...(hosts.get(key) ?? []), site]);
  }
  const keys = [...hosts.keys()].sort(byBytes);
  if (sort === 'reverse') keys.reverse();
  const rowsOf = c.sqlite.prepare(
    `SELECT u.url, k.fetched_at, k.content_type, k.http_status, k.payload_digest, k.warc_file, k.warc_offset, k.warc_length
     ${matching} AND u.site IN (SELECT value FROM json_each(@sites))`,
  );
  let n = 0;
  for (const key of keys) {
    const lines = (rowsOf.all({ ...params, sites: JSON.stringify(hosts.get(key)) }) as Row[]).map(lineOf);
    if (sort === 'closest') {
      const away = (l: CdxLine) => Math.abs(cdxTime(l.timestamp) - closest!);
      lines.sort((a, b) => away(a) - away(b) || byBytes(a.timestamp, b.timestamp));
    } else {
      lines.sort((a, b) => byBytes(`${a.urlkey} ${a.timestamp}`, `${b.urlkey} ${b.timestamp}`));
      if (sort === 'reverse') lines.reverse();
    }
    for (const l of lines) {
      if (q.limit !== undefined && n++ >= q.limit) return;
      yield l;
    }
  }
}

function lineOf(r: Row): CdxLine {
  return {
    urlkey: getSurt(r.url),
    timestamp: r.fetched_at.replace(/\D/g, '').slice(0, 14),
    url: r.url,
    mime: (r.content_type ?? 'unk').split(';')[0]!.trim() || 'unk',
    status: r.http_status === null ? '-' : String(r.http_status),
    digest: r.payload_digest ?? '-',
    length: String(r.warc_length),
    offset: String(r.warc_offset),
    filename: r.warc_file,
  };
}

/** The host part of an origin's urlkey: `com,example)` for http://www.example.com. */
function hostKey(site: string): string {
  const key = getSurt(`${site}/`);
  return key.slice(0, key.lastIndexOf(')') + 1);
}

/** Byte order, as a CDX file is sorted (`LC_ALL=C sort`); urlkeys are ASCII, so UTF-16 order is it. */
function byBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A 14-digit timestamp as milliseconds, for nearness. */
function cdxTime(ts: string): number {
  const d = ts.replace(/\D/g, '').padEnd(14, '0');
  return Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8), +d.slice(8, 10), +d.slice(10, 12), +d.slice(12, 14));
}

function hostMatches(h: string, host: string, domain: boolean): boolean {
  return h === host || (domain && h.endsWith(`.${host}`));
}

/** An ISO 8601 bound from a CDX timestamp prefix: missing digits are the lowest ('0') or highest ('9') time. */
function isoBound(ts: string, fill: '0' | '9'): string {
  if (!/^\d{1,14}$/.test(ts)) throw new CdxQueryError(`a timestamp is 1 to 14 digits (yyyyMMddHHmmss): ${ts}`);
  const d = ts.padEnd(14, fill);
  const iso = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}`;
  return fill === '9' ? `${iso}.999Z` : iso;
}

/** pywb's CDXJ line: `urlkey timestamp {json of the rest}`. */
export function cdxjLine(l: CdxLine): string {
  const { urlkey, timestamp, ...rest } = l;
  return `${urlkey} ${timestamp} ${JSON.stringify(rest)}`;
}
