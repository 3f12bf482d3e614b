import type { FetchResponse } from '../fetch/fetcher.js';
import type { StoredOriginal } from '../store/catalogue.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { ExchangeLocation } from '../warc/types.js';
import type { WarcWriter } from '../warc/writer.js';
import type { Seen } from './captureFacts.js';
import { packOriginal } from './documents.js';
import type { PreparedTicket } from './documentPool.js';

/** Records the exchange in the WARC, with the document's outlinks in a metadata record; null without a WARC. */
export async function recordExchange(warc: WarcWriter | null, res: FetchResponse, doc: PreparedTicket | null): Promise<ExchangeLocation | null> {
  if (!warc) return null;
  const at = await warc.writeExchange(exchangeFromFetch(res));
  if (doc && doc.links.length > 0) {
    await warc.writeMetadata({
      url: res.url,
      date: res.startedAt,
      concurrentTo: at.recordId,
      outlinks: doc.links.map((l) => ({ url: l.url, kind: l.kind })),
    });
  }
  return at;
}

/** Where the payload of an exchange is: its response record, or for a revisit its original's. */
export function recordOf(recorded: ExchangeLocation | null): Seen['record'] {
  if (recorded === null) return null;
  if (recorded.revisitOf === undefined) return { file: recorded.file, offset: recorded.offset, length: recorded.length };
  return recorded.revisitOf.place ?? null;
}

/**
 * Where a saved document's original bytes are kept for the final rewrite pass: its response record,
 * or for a revisit (an identical payload at another URL, such as a page with a tracking parameter)
 * the record of the payload's first capture. Deflated in the catalogue without a WARC, or when
 * that first capture's place is unknown (recorded by an older version).
 */
export function originalOf(res: FetchResponse, doc: PreparedTicket, recorded: ExchangeLocation | null): StoredOriginal {
  // Packed when asked for: without a WARC, or a rendered copy (which no record holds).
  if (doc.original !== null) return { packed: doc.original };
  if (recorded === null) return { packed: packOriginal(res.body) };
  const contentEncoding = res.headers['content-encoding'] ?? null;
  const place = recordOf(recorded);
  return place !== null ? { record: place, contentEncoding } : { packed: packOriginal(res.body) };
}
