/** Where the URL sits inside a meta refresh content attribute. */
export interface RefreshTarget {
  url: string;
  start: number;
  end: number;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\f' || ch === '\r';
}

/**
 * The URL of `<meta http-equiv=refresh content="5; url='…'">`, following the HTML "shared declarative
 * refresh steps"; null for a plain reload or content a browser would ignore.
 */
export function parseRefresh(content: string): RefreshTarget | null {
  let i = 0;
  const skipSpace = (): void => {
    while (isSpace(content[i])) i++;
  };
  skipSpace();
  const digitsStart = i;
  while (i < content.length && /[0-9.]/.test(content[i] ?? '')) i++;
  if (i === digitsStart) return null;
  if (i >= content.length) return null;
  if (content[i] !== ';' && content[i] !== ',' && !isSpace(content[i])) return null;
  skipSpace();
  if (content[i] === ';' || content[i] === ',') {
    i++;
    skipSpace();
  }
  if (i >= content.length) return null;

  const remainder = i;
  const hasUrlLabel = (): boolean => {
    if (content.slice(i, i + 3).toLowerCase() !== 'url') return false;
    i += 3;
    skipSpace();
    if (content[i] !== '=') return false;
    i++;
    skipSpace();
    return true;
  };
  const startsWithU = content[i] === 'u' || content[i] === 'U';
  if (startsWithU && !hasUrlLabel()) {
    return { url: content.slice(remainder), start: remainder, end: content.length };
  }
  const opening = content[i];
  const quote = opening === '"' || opening === "'" ? opening : '';
  if (quote !== '') i++;
  const closing = quote === '' ? -1 : content.indexOf(quote, i);
  const end = closing < 0 ? content.length : closing;
  return { url: content.slice(i, end), start: i, end };
}
