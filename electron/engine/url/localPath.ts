/**
 * Deterministic mapping from a URL to a file inside the mirror, safe on POSIX, Windows and macOS.
 *
 * Name format, one component per path segment, under a first component for the site:
 *   <host>[_<port>]/<dir>/.../<file>
 * - Segments are percent-decoded (UTF-8, NFC) for readable names. Characters a file system cannot
 *   hold are written as %XX (the UTF-8 bytes, upper-case hex): '%' itself, '/', '\', control and
 *   bidi-control characters, <>:"|?*, a trailing '.' or ' ', and the first letter of a Windows
 *   device name (CON, NUL.txt, com1 ...). Because a literal '%' is always %25, every '%' in a name
 *   starts either such an escape or the marker below, so no decoded name can imitate either.
 * - Marker "%h" + 12 hex digits of sha256: added to a component whose decoded spelling cannot stand
 *   alone, namely when decoding loses information (escaped reserved characters like %3D, invalid
 *   UTF-8, non-NFC text), when it contains letters that case-fold (see caseStable), when it is empty
 *   ('//'), when it is too long (it is then truncated), and on the file component when the URL has
 *   a query. Directory components hash their exact (encoded) segment, so one directory keeps one
 *   name; the file component hashes the whole canonical URL. The marker goes before the extension.
 * - The file component gets an extension from the content type where browsers need one to open it.
 *
 * Examples: http://127.0.0.1:8765/about/ (text/html) -> 127.0.0.1_8765/about/index.html;
 *   https://example.org/catalogue/?page=3 -> example.org/catalogue/index%h1a2b3c4d5e6f.html.
 *
 * Known overlaps, by design (same resource in practice): http and https of one host:port share a
 * folder; '/about' and '/about.html' (both HTML) share about.html; '/dir/' and '/dir/index.html'
 * share dir/index.html. A name kept without an added extension ('/data' of unknown type) can also
 * be needed as a directory ('/data/x'); the writer has to notice that clash.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { canonicalize, encodePathSegment } from './canonical.js';

/** Well under every file system's 255 limit, leaving room for the marker and extension. */
const MAX_COMPONENT_BYTES = 150;
const HASH_MARKER = '%h';
const HASH_HEX_DIGITS = 12;

/** Characters no file system (or no user) should see raw in a name. */
const UNSAFE_CHAR = /[%/\\<>:"|?*\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Windows silently drops a trailing dot or space. */
const ENDS_UNSAFE = /[. ]$/;
/** Windows device names, reserved whatever follows the first '.'. */
const WINDOWS_DEVICE = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$) *$/i;
/** A real file extension: short, alphanumeric, with at least one letter (so 'v1.2' has none). */
const EXTENSION = /(?<=[^.])\.(?=[0-9]*[A-Za-z])[A-Za-z0-9]{1,8}$/;
/** Server-side page extensions say nothing about what the response is. */
const SCRIPT_EXTENSIONS = new Set(['.php', '.asp', '.aspx', '.jsp', '.cgi', '.pl', '.cfm', '.do', '.action']);

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const JS_TYPES = new Set([
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
]);
const EXTENSION_BY_TYPE: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
  'image/x-icon': '.ico',
  'image/vnd.microsoft.icon': '.ico',
  'application/pdf': '.pdf',
  'application/json': '.json',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'application/rss+xml': '.xml',
  'application/atom+xml': '.xml',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'font/woff': '.woff',
  'font/woff2': '.woff2',
  'font/ttf': '.ttf',
  'font/otf': '.otf',
  'application/font-woff': '.woff',
  'audio/mpeg': '.mp3',
  'audio/ogg': '.ogg',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'application/zip': '.zip',
};

function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, HASH_HEX_DIGITS);
}

function escapeChar(char: string): string {
  return [...Buffer.from(char, 'utf8')]
    .map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0'))
    .join('');
}

/** Writes decoded text as a name every file system accepts; reversible, as every '%' is escaped. */
function fileSystemName(text: string): string {
  if (!UNSAFE_CHAR.test(text) && !ENDS_UNSAFE.test(text) && !WINDOWS_DEVICE.test(text.split('.')[0] ?? '')) return text;
  const chars = [...text].map((c) => (UNSAFE_CHAR.test(c) ? escapeChar(c) : c));
  const last = chars.at(-1);
  if (last === '.' || last === ' ') chars[chars.length - 1] = escapeChar(last);
  const first = chars[0];
  if (first !== undefined && WINDOWS_DEVICE.test(text.split('.')[0] ?? '')) chars[0] = escapeChar(first);
  return chars.join('');
}

/**
 * True when no other spelling of the text can meet it on a case-insensitive file system
 * (NTFS, APFS): it is lower case and survives an upper/lower round trip ('ß', 'ſ' and 'ı' do not).
 */
function caseStable(text: string): boolean {
  return text === text.toLowerCase() && text.toUpperCase().toLowerCase() === text;
}

function percentDecode(segment: string): string {
  if (!segment.includes('%')) return segment.normalize('NFC');
  // split() with a capturing group alternates literal text and the hex of each escape.
  const parts = segment.split(/%([0-9A-Fa-f]{2})/);
  const bytes = parts.map((p, i) => (i % 2 === 1 ? Buffer.from([parseInt(p, 16)]) : Buffer.from(p, 'utf8')));
  return Buffer.concat(bytes).toString('utf8').normalize('NFC');
}

/** The longest prefix within maxBytes that does not split a character or a %XX escape. */
function truncateBytes(name: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const token of name.match(/%[0-9A-F]{2}|[^]/gu) ?? []) {
    bytes += Buffer.byteLength(token, 'utf8');
    if (bytes > maxBytes) break;
    out += token;
  }
  return out;
}

/** stem + marker + hash + suffix, the stem truncated so the whole fits MAX_COMPONENT_BYTES. */
function withHash(stem: string, hashInput: string, suffix = ''): string {
  const tail = HASH_MARKER + shortHash(hashInput) + suffix;
  return truncateBytes(stem, MAX_COMPONENT_BYTES - Buffer.byteLength(tail, 'utf8')) + tail;
}

/** True when the component's name can be its decoded spelling, with no hash. */
function standsAlone(segment: string, text: string): boolean {
  return (
    segment !== '' &&
    encodePathSegment(text) === segment &&
    caseStable(text) &&
    Buffer.byteLength(fileSystemName(text), 'utf8') <= MAX_COMPONENT_BYTES
  );
}

function siteComponent(url: URL): string {
  // '_' is escaped in the host so that '_<port>' cannot be confused with part of a host name.
  const host = fileSystemName(url.hostname).replaceAll('_', '%5F');
  const name = url.port ? `${host}_${url.port}` : host;
  return Buffer.byteLength(name, 'utf8') <= MAX_COMPONENT_BYTES ? name : withHash(name, url.host);
}

function directoryComponent(segment: string): string {
  const text = percentDecode(segment);
  const name = fileSystemName(text);
  return standsAlone(segment, text) ? name : withHash(name, segment);
}

function mimeType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

/** The extension to append to a name whose own extension (maybe '') is urlExtension. */
function extensionToAdd(urlExtension: string, contentType: string | null, isDirectory: boolean): string {
  const type = mimeType(contentType);
  const ext = urlExtension.toLowerCase();
  if (type === null) return isDirectory ? '.html' : '';
  if (HTML_TYPES.has(type)) return ext === '.html' || ext === '.htm' ? '' : '.html';
  if (type === 'text/css') return ext === '.css' ? '' : '.css';
  if (JS_TYPES.has(type)) return ext === '.js' || ext === '.mjs' ? '' : '.js';
  if (ext !== '' && !SCRIPT_EXTENSIONS.has(ext)) return '';
  return EXTENSION_BY_TYPE[type] ?? '';
}

function fileComponent(segment: string, url: URL, contentType: string | null): string {
  const isDirectory = segment === '';
  const text = isDirectory ? 'index' : percentDecode(segment);
  const name = fileSystemName(text);
  const urlExtension = EXTENSION.exec(name)?.[0] ?? '';
  const added = extensionToAdd(urlExtension, contentType, isDirectory);
  const plain = url.search === '' && (isDirectory || standsAlone(segment, text));
  if (plain && Buffer.byteLength(name + added, 'utf8') <= MAX_COMPONENT_BYTES) return name + added;
  const stem = name.slice(0, name.length - urlExtension.length);
  return withHash(stem, url.href, urlExtension + added);
}

/**
 * The mirror-relative path ('/'-separated) of a URL's file. A pure function of its arguments; throws
 * if url is not an http(s) URL.
 */
export function localPathFor(canonicalUrl: string, contentType: string | null): string {
  const canonical = canonicalize(canonicalUrl);
  if (canonical === null) throw new Error(`Not an http(s) URL: ${canonicalUrl}`);
  const url = new URL(canonical);
  const segments = url.pathname.slice(1).split('/');
  const fileSegment = segments.pop() ?? '';
  return [
    siteComponent(url),
    ...segments.map(directoryComponent),
    fileComponent(fileSegment, url, contentType),
  ].join('/');
}

/**
 * The file a URL will most likely get, before its content type is known, from how it was referenced
 * (a link suggests HTML, a stylesheet link CSS). A URL with an extension of its own keeps its name.
 */
export function predictedLocalPath(canonicalUrl: string, hint: 'html' | 'css' | null): string {
  const name = canonicalUrl.replace(/[?#].*$/, '').split('/').pop() ?? '';
  const ext = EXTENSION.exec(name)?.[0]?.toLowerCase() ?? '';
  const ownType = ext !== '' && !SCRIPT_EXTENSIONS.has(ext);
  const type = hint === null || ownType ? null : hint === 'html' ? 'text/html' : 'text/css';
  return localPathFor(canonicalUrl, type);
}

const HREF_RAW = /^[A-Za-z0-9\-._~]$/;
const HREF_RAW_ALL = /^[A-Za-z0-9\-._~]*$/;
/** Non-ASCII, controls, space and the characters WHATWG escapes in fragments. */
const FRAGMENT_UNSAFE = /[^\x21-\x7E]|["<>`]/u;

/** Escapes everything but unreserved characters, so the href is ASCII and means exactly this name. */
function hrefSegment(name: string): string {
  // Most names need no escaping; checking the whole name first spares a split per character.
  if (HREF_RAW_ALL.test(name)) return name;
  return [...name].map((c) => (HREF_RAW.test(c) ? c : escapeChar(c))).join('');
}

/**
 * The relative path between two local paths, which are '/'-separated, relative to the mirror and
 * free of '.' and '..' segments (localPathFor's output): path.posix.relative would first resolve
 * both against the working directory, a system call per reference.
 */
function relativeLocal(fromDir: string[], to: string[]): string[] {
  let common = 0;
  while (common < fromDir.length && common < to.length && fromDir[common] === to[common]) common++;
  const up: string[] = new Array<string>(fromDir.length - common).fill('..');
  return up.concat(to.slice(common));
}

/**
 * Relative href from the page stored at fromLocalPath to the file at toLocalPath (both from
 * localPathFor). fragment is taken as written in a URL; characters not allowed there are escaped.
 */
export function hrefBetween(fromLocalPath: string, toLocalPath: string, fragment?: string): string {
  const relative = relativeLocal(fromLocalPath.split('/').slice(0, -1), toLocalPath.split('/'));
  const href = relative.map((s) => (s === '..' ? s : hrefSegment(s))).join('/');
  if (!fragment) return href;
  if (!FRAGMENT_UNSAFE.test(fragment)) return `${href}#${fragment}`;
  return `${href}#${[...fragment].map((c) => (FRAGMENT_UNSAFE.test(c) ? escapeChar(c) : c)).join('')}`;
}

/**
 * Joins root and rel with the given path rules; throws unless the result lies strictly inside root.
 * Defence in depth: localPathFor never produces such paths.
 */
export function resolveInside(
  root: string,
  rel: string,
  impl: typeof path.posix | typeof path.win32 = path,
): string {
  // On Windows a ':' in rel names a drive ('C:x') or an alternate data stream ('a:b').
  if (impl.isAbsolute(rel) || rel.includes('\0') || (impl === path.win32 && rel.includes(':'))) {
    throw new Error(`Path escapes the mirror: ${rel}`);
  }
  const joined = impl.join(root, rel);
  const back = impl.relative(root, joined);
  if (back === '' || back === '..' || back.startsWith('..' + impl.sep) || impl.isAbsolute(back)) {
    throw new Error(`Path escapes the mirror: ${rel}`);
  }
  return joined;
}
