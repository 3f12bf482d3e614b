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

export interface CdxQuery {
  url: string;
  match: MatchType;
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
  site: string;
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
 * response, which is what a replay reads), in URL then time order.
 */
export function* cdxLines(c: CatalogueStore, q: CdxQuery): Generator<CdxLine> {
  const target = canonicalize(q.url.includes('://') ? q.url : `http://${q.url}`);
  if (target === null) throw new CdxQueryError(`not a URL: ${q.url}`);
  const host = new URL(target).hostname;
  const where =
    q.match === 'exact'
      ? { sql: 'u.url = @url', keep: () => true }
      : q.match === 'prefix'
        ? { sql: "u.url >= @url AND u.url < @url || char(1114111)", keep: () => true }
        : { sql: "u.site LIKE '%' || @host || '%'", keep: (r: Row) => hostMatches(new URL(r.site).hostname, host, q.match === 'domain') };
  const from = q.from === undefined ? '' : isoBound(q.from, '0');
  const to = q.to === undefined ? '9999' : isoBound(q.to, '9');
  const rows = c.sqlite
    .prepare(
      `SELECT u.url, u.site, k.fetched_at, k.content_type, k.http_status, k.payload_digest, k.warc_file, k.warc_offset, k.warc_length
       FROM url_captures k JOIN urls u ON u.id = k.url_id
       WHERE ${where.sql} AND k.warc_file IS NOT NULL AND k.fetched_at >= @from AND k.fetched_at <= @to
       ORDER BY u.url, k.fetched_at`,
    )
    .iterate({ url: target, host, from, to }) as IterableIterator<Row>;
  let n = 0;
  for (const r of rows) {
    if (!where.keep(r)) continue;
    if (q.limit !== undefined && n++ >= q.limit) return;
    yield {
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
