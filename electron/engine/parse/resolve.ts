import iconv from 'iconv-lite';

/** Schemes that can never be archived; dropping them early keeps them out of the link cap. */
const UNFETCHABLE_SCHEME = /^\s*(?:javascript|mailto|tel|data|about|blob|sms|callto):/i;

/** Worth resolving at all: not empty and not an obviously unfetchable scheme. */
export function isCandidateRef(raw: string): boolean {
  return raw.trim() !== '' && !UNFETCHABLE_SCHEME.test(raw);
}

/** Encodings whose URL queries are percent-encoded as UTF-8 anyway (HTML "encoding-parse a URL"). */
function queryIsUtf8(charset: string): boolean {
  const c = charset.toLowerCase();
  return c === 'utf-8' || c === 'utf-16le' || c === 'utf-16be';
}

function percentEncode(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/**
 * Browsers percent-encode non-ASCII query characters of a link in the document's own encoding (a GBK
 * page's `?q=中文` sends GBK bytes), and characters that encoding lacks as `&#NNNN;`. Doing the same
 * makes the crawler request what a browser would.
 */
function encodeQuery(raw: string, charset: string): string {
  const q = raw.indexOf('?');
  if (q < 0 || queryIsUtf8(charset) || !/[^\x00-\x7f]/.test(raw)) return raw;
  const hash = raw.indexOf('#', q);
  const end = hash < 0 ? raw.length : hash;
  let query = '';
  for (const ch of raw.slice(q + 1, end)) {
    if (ch.charCodeAt(0) < 0x80) {
      query += ch;
      continue;
    }
    const bytes = iconv.encode(ch, charset);
    query += iconv.decode(bytes, charset) === ch ? percentEncode(bytes) : `%26%23${ch.codePointAt(0)}%3B`;
  }
  return raw.slice(0, q + 1) + query + raw.slice(end);
}

export interface ResolvedRef {
  url: string;
  fragment: string;
}

/**
 * Resolves a reference as a browser would; null unless it lands on http(s). `queryCharset` is the
 * document encoding for HTML attributes and UTF-8 for CSS, whose URLs are always UTF-8.
 */
export function resolveRef(raw: string, base: string, queryCharset: string): ResolvedRef | null {
  let href: string;
  try {
    const u = new URL(encodeQuery(raw, queryCharset), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    href = u.href;
  } catch {
    return null;
  }
  const hash = href.indexOf('#');
  return hash < 0 ? { url: href, fragment: '' } : { url: href.slice(0, hash), fragment: href.slice(hash + 1) };
}
