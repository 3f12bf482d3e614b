/**
 * Why a regular expression (JavaScript syntax, `u` flag) could take exponential time on a
 * backtracking engine, or null. Conservative: a repeated group (`*`, `+`, `{n,}`, `{n,m}` with
 * m > 1) may hold neither a repeat nor an alternation (`(a+)+`, `(\w|\d)*`), and backreferences are
 * refused. What this lets through takes at most polynomial time per match attempt; the extraction
 * bounds it further by scanning pages in short windows (see focus/regexScan.ts).
 */
export function backtrackingRisk(source: string): string | null {
  // Per open group: whether it holds a repeat or an alternation so far.
  const groups: { risky: boolean }[] = [{ risky: false }];
  let i = 0;
  // Just past a closing character found at `at`; the end when there is none.
  const after = (at: number): number => (at < 0 ? source.length : at + 1);
  const repeatAt = (at: number): number => {
    // The length of a repeating quantifier at `at` (0 for none, or for `?` and `{0,1}`, `{1}`).
    const c = source[at];
    if (c === '*' || c === '+') return 1;
    if (c !== '{') return 0;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
    if (m === null) return 0;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    return max > 1 ? m[0].length : 0;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not allowed';
      i = next === 'u' && source[i + 2] === '{' ? after(source.indexOf('}', i)) : i + 2;
    } else if (c === '[') {
      // A class: up to its unescaped closing bracket.
      i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      groups.push({ risky: false });
      i++;
      // (?:, (?=, (?!, (?<=, (?<!, (?<name>
      if (source[i] === '?') i = source[i + 1] === '<' && source[i + 2] !== '=' && source[i + 2] !== '!' ? after(source.indexOf('>', i)) : i + 2;
      continue;
    } else if (c === ')') {
      const inner = groups.length > 1 ? groups.pop()! : { risky: false };
      i++;
      const q = repeatAt(i);
      if (q > 0 && inner.risky) return `a repeated group holds a repeat or an alternative: (…)${source.slice(i, i + q)} can take exponential time`;
      if (q > 0 || inner.risky) groups[groups.length - 1]!.risky = true;
      continue;
    } else if (c === '|') {
      groups[groups.length - 1]!.risky = true;
      i++;
    } else i++;
    const q = repeatAt(i);
    if (q > 0) groups[groups.length - 1]!.risky = true;
  }
  return null;
}
