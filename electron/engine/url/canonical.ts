/**
 * The one URL identity used for dedup, scope, rewriting and the catalogue.
 * WHATWG parsing does most of the work (case, default ports, dot segments, backslashes, tabs/newlines);
 * on top of it, percent-encoding is normalised per RFC 3986 so that equivalent spellings coincide.
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** RFC 3986 pchar: unreserved, sub-delims, ':' and '@'. Anything else in a segment is escaped. */
const SEGMENT_RAW = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
const PATH_RAW = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;
const QUERY_RAW = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/;
const ESCAPE = /^%[0-9A-Fa-f]{2}/;
/** Whole components needing no change: no escapes, every character allowed raw (most URLs). */
const SEGMENT_PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/;
const PATH_PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const QUERY_PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*$/;

function percentEncodeUtf8(char: string): string {
  return [...Buffer.from(char, 'utf8')]
    .map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0'))
    .join('');
}

/**
 * Decodes escapes of unreserved characters, upper-cases the hex of the others, and encodes every
 * character not allowed raw (including a '%' that starts no valid escape).
 */
function normalizeEncoding(component: string, allowedRaw: RegExp, plain: RegExp): string {
  if (plain.test(component)) return component;
  let out = '';
  for (let i = 0; i < component.length; ) {
    const escape = ESCAPE.exec(component.slice(i, i + 3));
    if (escape) {
      const decoded = String.fromCharCode(parseInt(component.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : escape[0].toUpperCase();
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(component.codePointAt(i) ?? 0);
    out += allowedRaw.test(char) ? char : percentEncodeUtf8(char);
    i += char.length;
  }
  return out;
}

/** Encodes decoded text exactly the way canonicalize writes a path segment ('/' included, as %2F). */
export function encodePathSegment(text: string): string {
  return normalizeEncoding(text.replaceAll('%', '%25'), SEGMENT_RAW, SEGMENT_PLAIN);
}

/**
 * Resolves input against base and returns its canonical form, or null when it is not an http(s) URL
 * or cannot be parsed. Idempotent: canonicalize(canonicalize(x)) === canonicalize(x).
 */
export function canonicalize(input: string, base?: string): string | null {
  let url: URL;
  try {
    // The WHATWG parser itself strips tabs and newlines anywhere, as browsers do.
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;

  // 'example.org.' and 'example.org' are the same host.
  const hostname = url.hostname.replace(/\.+$/, '');
  if (hostname === '') return null;
  if (hostname !== url.hostname) url.hostname = hostname;

  // Each assignment re-serialises the URL, so only what changes is assigned.
  if (url.href.includes('#')) url.hash = '';
  const pathname = normalizeEncoding(url.pathname, PATH_RAW, PATH_PLAIN);
  if (pathname !== url.pathname) url.pathname = pathname;
  const query = url.search.slice(1);
  const search = normalizeEncoding(query, QUERY_RAW, QUERY_PLAIN);
  // Assigning drops an empty '?', and a '?' that starts the query ('??a' is '?a').
  if (search !== query || search.startsWith('?') || (search === '' && url.href.endsWith('?'))) url.search = search;
  return url.href;
}
