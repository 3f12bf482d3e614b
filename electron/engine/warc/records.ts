import { EMPTY_DIGEST, warcDigest } from './digest.js';
import { fieldLines, type Field } from './fields.js';
import { requestHead, responseHead } from './http.js';
import { serializeRecord, warcDate } from './record.js';
import type { OriginalCapture, WarcExchange, WarcMetadata, WarcResource } from './types.js';

/** Why a revisit record holds no payload: it is one already archived, or the server said it had not changed. */
export const REVISIT_PROFILES = {
  identical: 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
  notModified: 'http://netpreserve.org/warc/1.1/revisit/server-not-modified',
} as const;
const RESPONSE_TYPE = 'application/http; msgtype=response';
const WARC_FIELDS_TYPE = 'application/warc-fields';

/** The file's first record. */
export function warcinfoRecord(id: string, date: Date, filename: string, info: readonly Field[]): Buffer {
  const block = [
    ['format', 'WARC File Format 1.1'],
    ['conformsTo', 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/'],
    ...info,
  ] as const;
  return serializeRecord(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', id],
      ['WARC-Date', warcDate(date)],
      ['WARC-Filename', filename],
      ['Content-Type', WARC_FIELDS_TYPE],
    ],
    [warcFieldsBlock(block)],
  );
}

/** Ids a record of an exchange needs. */
export interface RecordIds {
  id: string;
  warcinfoId: string;
}

export function responseRecord(x: WarcExchange, ids: RecordIds, payloadDigest: string): Buffer {
  return serializeRecord(
    [...exchangeFields('response', x, ids), ['Content-Type', RESPONSE_TYPE], ['WARC-Payload-Digest', payloadDigest]],
    [responseHead(x.httpVersion, x.status, x.statusText, x.responseHeaders), x.payload],
  );
}

/**
 * A response whose payload is already archived (or a 304 to a conditional request): its HTTP head
 * only, pointing at the capture that holds the payload.
 */
export function revisitRecord(
  x: WarcExchange,
  ids: RecordIds,
  payloadDigest: string | null,
  original: OriginalCapture,
  profile: keyof typeof REVISIT_PROFILES = 'identical',
): Buffer {
  return serializeRecord(
    [
      ...exchangeFields('revisit', x, ids),
      ['Content-Type', RESPONSE_TYPE],
      ['WARC-Profile', REVISIT_PROFILES[profile]],
      ...(original.recordId !== undefined ? ([['WARC-Refers-To', original.recordId]] as const) : []),
      ['WARC-Refers-To-Target-URI', original.url],
      ['WARC-Refers-To-Date', warcDate(original.date)],
      ...(payloadDigest !== null ? ([['WARC-Payload-Digest', payloadDigest]] as const) : []),
    ],
    [responseHead(x.httpVersion, x.status, x.statusText, x.responseHeaders)],
  );
}

/** The request, its body empty (the fetcher only GETs); linked to its response by WARC-Concurrent-To. */
export function requestRecord(x: WarcExchange, ids: RecordIds, responseId: string): Buffer {
  return serializeRecord(
    [
      ...exchangeFields('request', x, ids),
      ['WARC-Concurrent-To', responseId],
      ['Content-Type', 'application/http; msgtype=request'],
      ['WARC-Payload-Digest', EMPTY_DIGEST],
    ],
    [requestHead(x.method ?? 'GET', x.path, x.httpVersion, x.requestHeaders)],
  );
}

/** What the crawl learnt from a page; for now its outlinks. */
export function metadataRecord(m: WarcMetadata, ids: RecordIds): Buffer {
  return serializeRecord(
    [
      ['WARC-Type', 'metadata'],
      ['WARC-Record-ID', ids.id],
      ['WARC-Date', warcDate(m.date)],
      ['WARC-Target-URI', m.url],
      ['WARC-Warcinfo-ID', ids.warcinfoId],
      ['WARC-Concurrent-To', m.concurrentTo],
      ['Content-Type', WARC_FIELDS_TYPE],
    ],
    [warcFieldsBlock(m.outlinks.map((link) => ['outlink', `${link.url} ${link.kind}`] as const))],
  );
}

/** A document made by Harvest (as Browsertrix records its page thumbnails and screenshots). */
export function resourceRecord(r: WarcResource, ids: RecordIds): Buffer {
  return serializeRecord(
    [
      ['WARC-Type', 'resource'],
      ['WARC-Record-ID', ids.id],
      ['WARC-Date', warcDate(r.date)],
      ['WARC-Target-URI', r.uri],
      ['WARC-Warcinfo-ID', ids.warcinfoId],
      ['Content-Type', r.contentType],
      ['WARC-Payload-Digest', warcDigest([r.payload])],
    ],
    [r.payload],
  );
}

function exchangeFields(type: 'response' | 'revisit' | 'request', x: WarcExchange, ids: RecordIds): Field[] {
  return [
    ['WARC-Type', type],
    ['WARC-Record-ID', ids.id],
    ['WARC-Date', warcDate(x.date)],
    ['WARC-Target-URI', x.url],
    ...(x.ip !== null ? ([['WARC-IP-Address', x.ip]] as const) : []),
    ['WARC-Warcinfo-ID', ids.warcinfoId],
  ];
}

function warcFieldsBlock(fields: readonly Field[]): Buffer {
  return Buffer.from(fieldLines(fields), 'utf8');
}
