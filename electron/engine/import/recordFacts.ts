import { parseWarcHead } from '../warc/fields.js';
import { headerOf, parseHttpResponse, type HttpResponseBlock } from '../warc/httpBlock.js';

/** What the catalogue takes from one WARC record of another tool. */
export interface RecordFacts {
  type: string;
  /** WARC-Target-URI, without the angle brackets some WARC 1.0 writers put around it. */
  uri: string | null;
  date: Date | null;
  recordId: string | null;
  payloadDigest: string | null;
  /** A revisit's original: by WARC-Refers-To-Target-URI. */
  refersToUri: string | null;
  /** The warcinfo fields (software, isPartOf ...), for a warcinfo record. */
  info: Map<string, string> | null;
  /** The HTTP response a response or revisit record holds. */
  http: HttpResponseBlock | null;
  /** A resource record's block (a thumbnail, a page's text ...). */
  resource: Buffer | null;
}

const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');

/** The facts of a record's bytes (as warcRecords.ts reads them); null when its head can't be read. */
export function recordFacts(content: Buffer): RecordFacts | null {
  const headEnd = content.indexOf(BLANK_LINE);
  if (headEnd < 0) return null;
  const head = parseWarcHead(content.toString('utf8', 0, headEnd + BLANK_LINE.length));
  if (head === null) return null;
  const type = (head.get('warc-type') ?? '').toLowerCase();
  const blockStart = headEnd + BLANK_LINE.length;
  const block = content.subarray(blockStart, blockStart + Number(head.get('content-length') ?? 0));
  const date = head.get('warc-date');
  const parsedDate = date === undefined ? null : new Date(date);
  const isHttp = (type === 'response' || type === 'revisit') && /^application\/http/i.test(head.get('content-type') ?? 'application/http');
  return {
    type,
    uri: unbracket(head.get('warc-target-uri')),
    date: parsedDate !== null && !Number.isNaN(parsedDate.getTime()) ? parsedDate : null,
    recordId: head.get('warc-record-id') ?? null,
    payloadDigest: head.get('warc-payload-digest') ?? null,
    refersToUri: unbracket(head.get('warc-refers-to-target-uri')),
    info: type === 'warcinfo' ? warcFields(block) : null,
    http: isHttp ? parseHttpResponse(block) : null,
    resource: type === 'resource' ? block : null,
  };
}

function unbracket(v: string | undefined): string | null {
  if (v === undefined) return null;
  return v.startsWith('<') && v.endsWith('>') ? v.slice(1, -1) : v;
}

/** An application/warc-fields block, by lowercased name. */
function warcFields(block: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of block.toString('utf8').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

/** The response's Content-Type, Location, Content-Encoding and validators. */
export function responseHeaders(http: HttpResponseBlock): {
  contentType: string | null;
  location: string | null;
  contentEncoding: string | null;
  etag: string | null;
  lastModified: string | null;
} {
  const h = http.headers;
  return {
    contentType: headerOf(h, 'content-type'),
    location: headerOf(h, 'location'),
    contentEncoding: headerOf(h, 'content-encoding'),
    etag: headerOf(h, 'etag'),
    lastModified: headerOf(h, 'last-modified'),
  };
}
