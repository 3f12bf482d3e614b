/**
 * A field's regex, matched leftmost-longest: JavaScript tries alternatives in order and stops at the
 * first that matches (`[0-9]{5}|[0-9]{6}` gives five digits of a six-digit postcode); here, where the
 * whole pattern matches, each top-level alternative is tried there too and the longest match kept,
 * as POSIX regular expressions choose.
 */
export class FieldPattern {
  private readonly whole: RegExp;
  private readonly alternatives: RegExp[];

  constructor(source: string) {
    this.whole = new RegExp(source, 'gu');
    const parts = topLevelAlternatives(source);
    this.alternatives = parts.length > 1 ? parts.map((p) => new RegExp(p, 'uy')) : [];
  }

  /** Every match in `text`, left to right, each the longest at its place; none overlapping. */
  *matches(text: string): Generator<string> {
    for (const m of this.matchesAt(text)) yield m.value;
  }

  /** The same matches with where each starts in `text`. */
  *matchesAt(text: string): Generator<{ index: number; value: string }> {
    this.whole.lastIndex = 0;
    for (let m = this.whole.exec(text); m !== null; m = this.whole.exec(text)) {
      let best = m[0];
      for (const alt of this.alternatives) {
        alt.lastIndex = m.index;
        const a = alt.exec(text);
        if (a !== null && a[0].length > best.length) best = a[0];
      }
      this.whole.lastIndex = m.index + Math.max(1, best.length);
      yield { index: m.index, value: best };
    }
  }
}

/** The alternatives of a pattern's top level: `|` outside groups, classes and escapes. */
export function topLevelAlternatives(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(source.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(source.slice(from));
  return parts;
}
