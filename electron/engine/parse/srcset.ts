/** One image candidate of a srcset attribute. */
export interface SrcsetCandidate {
  url: string;
  /** Width/density descriptors as written, e.g. "2x" or "480w"; '' if none. */
  descriptors: string;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

const COMMA = 0x2c;
const LPAREN = 0x28;
const RPAREN = 0x29;

/**
 * HTML "parse a srcset attribute", keeping descriptors as text. URLs run to the next whitespace, so
 * they may contain commas; a comma ends a candidate only after its URL, outside parentheses.
 */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && (isSpace(value.charCodeAt(i)) || value.charCodeAt(i) === COMMA)) i++;
    if (i >= value.length) break;
    const urlStart = i;
    while (i < value.length && !isSpace(value.charCodeAt(i))) i++;
    const url = value.slice(urlStart, i);
    if (url.endsWith(',')) {
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === COMMA) end--;
      if (end > 0) candidates.push({ url: url.slice(0, end), descriptors: '' });
      continue;
    }
    const descriptorStart = i;
    let inParens = false;
    while (i < value.length) {
      const c = value.charCodeAt(i);
      if (inParens) inParens = c !== RPAREN;
      else if (c === LPAREN) inParens = true;
      else if (c === COMMA) break;
      i++;
    }
    const descriptors = value.slice(descriptorStart, i).trim().replace(/\s+/g, ' ');
    i++; // past the comma
    candidates.push({ url, descriptors });
  }
  return candidates;
}

/** Makes a URL safe as a srcset candidate: no whitespace, no comma at either end. */
function srcsetSafe(url: string): string {
  return url.replace(/\s/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).replace(/^,|,$/g, '%2C');
}

export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates
    .map(({ url, descriptors }) => (descriptors === '' ? srcsetSafe(url) : `${srcsetSafe(url)} ${descriptors}`))
    .join(', ');
}
