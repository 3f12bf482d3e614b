/**
 * Finds the URLs in CSS with a single left-to-right pass that follows CSS Syntax tokenisation where
 * it matters (comments, strings, escapes, url tokens, bad urls), so hostile input stays linear.
 */

export interface CssRef {
  /** The URL as the stylesheet means it: quotes removed, escapes decoded. */
  raw: string;
  kind: 'css-url' | 'css-import';
  /**
   * The span of the URL as written: css.slice(start, end) is the URL text, with its quotes when it
   * was quoted, so a replacement brings its own quoting.
   */
  start: number;
  end: number;
}

const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const LPAREN = 0x28;
const RPAREN = 0x29;
const STAR = 0x2a;
const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const AT = 0x40;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

function isNewline(c: number): boolean {
  return c === LF || c === CR || c === FF;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || isNewline(c);
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Characters of identifiers and numbers (escapes handled separately). */
function isWordChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c >= 0x80
  );
}

function isNonPrintable(c: number): boolean {
  return c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
}

/** A backslash at i starts an escape (CSS Syntax §4.3.8). */
function isValidEscape(css: string, i: number): boolean {
  return css.charCodeAt(i) === BACKSLASH && i + 1 < css.length && !isNewline(css.charCodeAt(i + 1));
}

interface Decoded {
  char: string;
  next: number;
}

/** CSS Syntax §4.3.7, consume an escaped code point; `i` is just past the backslash. */
function readEscape(css: string, i: number): Decoded {
  if (i >= css.length) return { char: '\uFFFD', next: i };
  let j = i;
  while (j < css.length && j - i < 6 && isHexDigit(css.charCodeAt(j))) j++;
  if (j === i) {
    const cp = css.codePointAt(i) ?? 0xfffd;
    return { char: String.fromCodePoint(cp), next: i + (cp > 0xffff ? 2 : 1) };
  }
  let cp = Number.parseInt(css.slice(i, j), 16);
  if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) cp = 0xfffd;
  if (j < css.length && isWhitespace(css.charCodeAt(j))) {
    j += css.charCodeAt(j) === CR && css.charCodeAt(j + 1) === LF ? 2 : 1;
  }
  return { char: String.fromCodePoint(cp), next: j };
}

interface Token {
  value: string;
  /** End of the token's text. */
  end: number;
  /** Where scanning resumes. */
  next: number;
  /** False for bad-string and bad-url tokens, which browsers ignore. */
  ok: boolean;
}

/** A string token starting at the quote at `start` (§4.3.5). */
function readString(css: string, start: number): Token {
  const quote = css.charCodeAt(start);
  let value = '';
  let i = start + 1;
  let chunk = i;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === quote) {
      value += css.slice(chunk, i);
      return { value, end: i + 1, next: i + 1, ok: true };
    }
    if (isNewline(c)) return { value, end: i, next: i, ok: false };
    if (c === BACKSLASH) {
      value += css.slice(chunk, i);
      const after = css.charCodeAt(i + 1);
      if (i + 1 >= css.length) {
        i += 1;
      } else if (isNewline(after)) {
        i += after === CR && css.charCodeAt(i + 2) === LF ? 3 : 2; // an escaped newline continues the line
      } else {
        const escape = readEscape(css, i + 1);
        value += escape.char;
        i = escape.next;
      }
      chunk = i;
      continue;
    }
    i++;
  }
  value += css.slice(chunk);
  return { value, end: css.length, next: css.length, ok: true };
}

/** Skips the rest of a bad url up to its ')' (§4.3.14). */
function badUrl(css: string, i: number): Token {
  while (i < css.length) {
    if (css.charCodeAt(i) === RPAREN) return { value: '', end: i, next: i + 1, ok: false };
    i += isValidEscape(css, i) ? 2 : 1;
  }
  return { value: '', end: i, next: i, ok: false };
}

/** An unquoted url token whose text starts at `start`, past `url(` and any whitespace (§4.3.6). */
function readUnquotedUrl(css: string, start: number): Token {
  let value = '';
  let i = start;
  let chunk = i;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === RPAREN) return { value: value + css.slice(chunk, i), end: i, next: i + 1, ok: true };
    if (isWhitespace(c)) {
      value += css.slice(chunk, i);
      const end = i;
      while (i < css.length && isWhitespace(css.charCodeAt(i))) i++;
      if (i >= css.length) return { value, end, next: i, ok: true };
      if (css.charCodeAt(i) === RPAREN) return { value, end, next: i + 1, ok: true };
      return badUrl(css, i);
    }
    if (c === DQUOTE || c === SQUOTE || c === LPAREN || isNonPrintable(c)) return badUrl(css, i);
    if (c === BACKSLASH) {
      if (!isValidEscape(css, i)) return badUrl(css, i);
      value += css.slice(chunk, i);
      const escape = readEscape(css, i + 1);
      value += escape.char;
      i = escape.next;
      chunk = i;
      continue;
    }
    i++;
  }
  return { value: value + css.slice(chunk), end: css.length, next: css.length, ok: true };
}

/** End of the identifier-like word starting at i (escapes included); i itself if there is none. */
function wordEnd(css: string, i: number): number {
  while (i < css.length) {
    if (isWordChar(css.charCodeAt(i))) i++;
    else if (isValidEscape(css, i)) i += 2;
    else break;
  }
  return i;
}

function skipWhitespace(css: string, i: number): number {
  while (i < css.length && isWhitespace(css.charCodeAt(i))) i++;
  return i;
}

function isDataUrl(raw: string): boolean {
  return raw.trimStart().slice(0, 5).toLowerCase() === 'data:';
}

/**
 * Every url(...) and @import in a stylesheet, and the bare strings inside image-set(), in order.
 * data: URLs, empty urls, bad tokens, comments and @namespace URIs are skipped.
 */
export function findCssRefs(css: string): CssRef[] {
  const refs: CssRef[] = [];
  /** One entry per open parenthesis: does it belong to image-set(), whose strings are URLs? */
  const imageSetParens: boolean[] = [];
  /** The next url or string is the sheet of an @import. */
  let afterImport = false;
  /** Inside `@namespace …;`, whose url() names a namespace rather than a resource. */
  let inNamespace = false;

  const add = (token: Token, start: number, kind: CssRef['kind']): void => {
    if (token.ok && !inNamespace && token.value.trim() !== '' && !isDataUrl(token.value)) {
      refs.push({ raw: token.value, kind, start, end: token.end });
    }
  };

  /** After `url(`: either a quoted string (then `url(` acts as a function) or an unquoted url token. */
  const readUrl = (i: number): number => {
    const kind = afterImport ? 'css-import' : 'css-url';
    afterImport = false;
    const start = skipWhitespace(css, i);
    const quote = css.charCodeAt(start);
    if (quote === DQUOTE || quote === SQUOTE) {
      imageSetParens.push(false); // its ')' is consumed by the main loop
      const token = readString(css, start);
      add(token, start, kind);
      return token.next;
    }
    const token = readUnquotedUrl(css, start);
    add(token, start, kind);
    return token.next;
  };

  let i = 0;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === SLASH && css.charCodeAt(i + 1) === STAR) {
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 2;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      const token = readString(css, i);
      if (afterImport) add(token, i, 'css-import');
      else if (imageSetParens.at(-1) === true) add(token, i, 'css-url');
      afterImport = false;
      i = token.next;
      continue;
    }
    if (c === AT) {
      const end = wordEnd(css, i + 1);
      const name = css.slice(i + 1, end).toLowerCase();
      afterImport = name === 'import';
      inNamespace = name === 'namespace';
      i = end;
      continue;
    }
    const end = wordEnd(css, i);
    if (end > i) {
      if (css.charCodeAt(end) === LPAREN) {
        const name = css.slice(i, end).toLowerCase();
        if (name === 'url') {
          i = readUrl(end + 1);
          continue;
        }
        imageSetParens.push(name === 'image-set' || name === '-webkit-image-set');
        i = end + 1;
      } else {
        i = end;
      }
      afterImport = false;
      continue;
    }
    if (c === LPAREN) imageSetParens.push(false);
    else if (c === RPAREN) imageSetParens.pop();
    else if (c === SEMICOLON || c === LBRACE || c === RBRACE) inNamespace = false;
    if (!isWhitespace(c)) afterImport = false;
    i++;
  }
  return refs;
}

/** A CSS string holding `url`; '<' is escaped too, so the text is safe inside a <style> element. */
export function cssString(url: string): string {
  const escaped = url.replace(/["\\\n\r\f<]/g, (ch) => {
    switch (ch) {
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      case '<':
        return '\\3c ';
      default:
        return `\\${ch.charCodeAt(0).toString(16)} `;
    }
  });
  return `"${escaped}"`;
}

/** Replaces refs (sorted, as findCssRefs returns them) by quoted new URLs; a null keeps that ref as written. */
export function spliceCssRefs(css: string, refs: readonly CssRef[], urls: readonly (string | null)[]): string {
  const parts: string[] = [];
  let pos = 0;
  refs.forEach((ref, index) => {
    const url = urls[index] ?? null;
    if (url === null) return;
    parts.push(css.slice(pos, ref.start), cssString(url));
    pos = ref.end;
  });
  parts.push(css.slice(pos));
  return parts.join('');
}
