import { isUtf8 } from 'node:buffer';
import { getEncoding } from 'encoding-sniffer';
import iconv from 'iconv-lite';

/**
 * How far the <meta> prescan looks. The WHATWG prescan stops at 1024 bytes, but browsers also obey a
 * later <meta charset> in <head> by re-decoding ("change the encoding"); the prescan finds the first
 * declaration either way, so a longer window only helps pages with big head comments or scripts.
 */
const META_PRESCAN_BYTES = 64 * 1024;
/**
 * The WHATWG prescan's own window, looked at first: encoding-sniffer reads every byte up to its
 * limit even after a declaration (in JS, a byte at a time), and nearly every page declares its
 * charset in its first kilobyte. The first declaration is the one that counts, and is set only once
 * its tag is read to the end, so one found here is the one the longer window finds.
 */
const FIRST_PRESCAN_BYTES = 1024;
/** CSS Syntax §3.2: `@charset "` must open the first 1024 bytes to count. */
const CSS_CHARSET_PRESCAN_BYTES = 1024;
const CSS_CHARSET_OPEN = Buffer.from('@charset "', 'latin1');
const NO_BYTES = Buffer.alloc(0);
/** A WHATWG encoding we never decode with, so it can mark "nothing was recognised". A <meta> naming it reads as windows-1252. */
const UNRECOGNISED = 'x-user-defined';

/** The charset parameter of a Content-Type header value, unquoted; null if absent or empty. */
export function charsetParam(contentType: string | null): string | null {
  if (contentType === null) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/s, '$1').trim();
    return value === '' ? null : value;
  }
  return null;
}

/**
 * The WHATWG encoding name for a label (gb2312 -> GBK, iso-8859-1 -> windows-1252…), or null for a
 * label the Encoding Standard does not know or that we cannot decode. encoding-sniffer applies the
 * standard's label table to its transport-layer option; an empty buffer leaves nothing else to sniff.
 */
export function encodingForLabel(label: string): string | null {
  const name = getEncoding(NO_BYTES, { transportLayerEncodingLabel: label, defaultEncoding: UNRECOGNISED });
  return name === UNRECOGNISED || !iconv.encodingExists(name) ? null : name;
}

/** The <meta> prescan: the first kilobyte, then the longer window when that declared nothing. */
function prescan(body: Buffer): string {
  const first = getEncoding(body, { maxBytes: FIRST_PRESCAN_BYTES, defaultEncoding: UNRECOGNISED });
  if (first !== UNRECOGNISED || body.length <= FIRST_PRESCAN_BYTES) return first;
  return getEncoding(body, { maxBytes: META_PRESCAN_BYTES, defaultEncoding: UNRECOGNISED });
}

function bomEncoding(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'UTF-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'UTF-16BE';
  if (body[0] === 0xff && body[1] === 0xfe) return 'UTF-16LE';
  return null;
}

/** The label of a leading `@charset "label";` rule, read as ASCII (CSS Syntax §3.2). */
function cssCharsetLabel(body: Buffer): string | null {
  if (!body.subarray(0, CSS_CHARSET_OPEN.length).equals(CSS_CHARSET_OPEN)) return null;
  const head = body.subarray(CSS_CHARSET_OPEN.length, CSS_CHARSET_PRESCAN_BYTES);
  const close = head.indexOf('";', 0, 'latin1');
  return close < 0 ? null : head.subarray(0, close).toString('latin1');
}

function sniffCss(body: Buffer, headerLabel: string | null): string {
  const fromHeader = headerLabel === null ? null : encodingForLabel(headerLabel);
  if (fromHeader !== null) return fromHeader;
  const ruleLabel = cssCharsetLabel(body);
  const fromRule = ruleLabel === null ? null : encodingForLabel(ruleLabel);
  // A sheet cannot really be UTF-16 without a BOM, so the spec reads such a rule as UTF-8.
  if (fromRule === null || fromRule === 'UTF-16LE' || fromRule === 'UTF-16BE') return 'UTF-8';
  return fromRule;
}

/**
 * Which encoding a fetched document is in, as a WHATWG encoding name ("UTF-8", "windows-1252",
 * "GBK", "Shift_JIS"…). Order: byte order mark (it beats a wrong header, as in browsers), the HTTP
 * charset, then for HTML the <meta> prescan and for CSS the @charset rule.
 *
 * With no declaration at all, HTML falls back to UTF-8 when the bytes are valid UTF-8 and to
 * windows-1252 (the spec's default for most locales) otherwise: legacy 8-bit text with any
 * non-ASCII byte is practically never valid UTF-8, so the check only catches unlabelled UTF-8
 * pages, which is what browsers' own detectors conclude too. CSS falls back to UTF-8, its default.
 */
export function sniffCharset(body: Buffer, headerContentType: string | null, kind: 'html' | 'css'): string {
  const bom = bomEncoding(body);
  if (bom !== null) return bom;
  const headerLabel = charsetParam(headerContentType);
  if (kind === 'css') return sniffCss(body, headerLabel);
  // A recognised transport-layer charset is "certain" in the WHATWG algorithm: no prescan, and no
  // pass over the whole body to check it for UTF-8.
  const fromHeader = headerLabel === null ? null : headerEncoding(headerLabel);
  if (fromHeader !== null) return fromHeader;
  const name = prescan(body);
  if (name === UNRECOGNISED) return isUtf8(body) ? 'UTF-8' : 'windows-1252';
  return iconv.encodingExists(name) ? name : 'windows-1252';
}

/** The encoding a Content-Type charset names, or null when we don't know or can't decode it. */
function headerEncoding(label: string): string | null {
  // x-user-defined has no decoder here; its ASCII half matches.
  if (label.trim().toLowerCase() === 'x-user-defined') return 'windows-1252';
  return encodingForLabel(label);
}

/** The iconv-lite codec for a WHATWG encoding name. */
function decoderFor(charset: string): string {
  // The Encoding Standard decodes GBK with the gb18030 decoder (a superset that browsers use).
  if (charset.toLowerCase() === 'gbk') return 'gb18030';
  return iconv.encodingExists(charset) ? charset : 'UTF-8';
}

/** Decodes a body; a leading byte order mark is dropped, malformed sequences become U+FFFD. */
export function decodeText(body: Buffer, charset: string): string {
  const text = iconv.decode(body, decoderFor(charset));
  return charset === 'windows-1252' ? keepUnassigned1252(body, text) : text;
}

/** Bytes windows-1252 leaves unassigned; WHATWG decodes them to the C1 control of the same value. */
const UNASSIGNED_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * iconv-lite turns those five bytes into U+FFFD, which would lose them from the saved copy. A
 * single-byte decode keeps one character per byte, so they can be put back by position.
 */
function keepUnassigned1252(body: Buffer, text: string): string {
  if (!text.includes('\uFFFD')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const byte = body[i]!;
    out += text[i] === '\uFFFD' && UNASSIGNED_1252.has(byte) ? String.fromCharCode(byte) : text[i];
  }
  return out;
}
