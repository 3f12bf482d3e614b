import { SEARCH_QUERY_MAX_CHARS } from '../../../shared/search.js';
import { markWordBreaks } from '../parse/wordBreaks.js';

/**
 * The search box's language, turned into an FTS5 query that cannot fail to parse: words (implicit
 * AND), "quoted phrases", AND, OR, NOT (upper case, as in FTS5), parentheses, and a trailing * for
 * a prefix. Each word or phrase goes to FTS5 as a quoted string, so punctuation, column names and
 * FTS5 keywords typed in lower case are plain text; what isn't valid (a stray quote, NOT with
 * nothing before it) is a QuerySyntaxError that says what to change.
 */

export class QuerySyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuerySyntaxError';
  }
}

type Token =
  | { t: 'term'; text: string; prefix: boolean }
  | { t: 'op'; op: 'AND' | 'OR' | 'NOT' }
  | { t: '(' }
  | { t: ')' };

/** A letter or digit: a quoted string without one tokenizes to nothing. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

function tokenize(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const end = query.indexOf('"', i + 1);
      if (end < 0) throw new QuerySyntaxError(`unmatched quote at character ${i + 1}: close the phrase with another "`);
      const prefix = query[end + 1] === '*';
      out.push({ t: 'term', text: query.slice(i + 1, end), prefix });
      i = end + (prefix ? 2 : 1);
    } else if (c === '(' || c === ')') {
      out.push({ t: c });
      i++;
    } else {
      let j = i;
      while (j < query.length && !/[\s"()]/.test(query[j]!)) j++;
      const word = query.slice(i, j);
      if (word === 'AND' || word === 'OR' || word === 'NOT') out.push({ t: 'op', op: word });
      else {
        const prefix = word.endsWith('*');
        out.push({ t: 'term', text: word.replace(/\*+$/, ''), prefix });
      }
      i = j;
    }
  }
  return out;
}

function quoted(term: { text: string; prefix: boolean }): string {
  return `"${markWordBreaks(term.text).replaceAll('"', '""')}"${term.prefix ? '*' : ''}`;
}

/** Far deeper than any query a person writes. */
const MAX_NESTING = 100;

/**
 * Recursive descent over: or := and (OR and)*; and := not (AND? not)*; not := unit (NOT unit)*;
 * unit := term | ( or ). FTS5's own precedence is the same (NOT binds tightest, then AND, then OR).
 */
class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): string {
    const expr = this.or();
    const rest = this.tokens[this.i];
    if (rest !== undefined) throw new QuerySyntaxError(rest.t === ')' ? 'unmatched ")"' : `unexpected ${describe(rest)}`);
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private or(): string {
    const parts = [this.and()];
    while (this.isOp('OR')) {
      this.i++;
      parts.push(this.and('OR'));
    }
    return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
  }

  private and(after?: string): string {
    const parts = [this.not(after)];
    for (;;) {
      const next = this.peek();
      if (next === undefined || next.t === ')' || this.isOp('OR')) break;
      if (this.isOp('AND')) {
        this.i++;
        parts.push(this.not('AND'));
      } else parts.push(this.not());
    }
    return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
  }

  private not(after?: string): string {
    let expr = this.unit(after);
    while (this.isOp('NOT')) {
      this.i++;
      expr = `(${expr} NOT ${this.unit('NOT')})`;
    }
    return expr;
  }

  private unit(after?: string): string {
    const tok = this.peek();
    if (tok === undefined) {
      throw new QuerySyntaxError(after ? `${after} needs a word or phrase after it` : 'empty query: type a word or a "phrase"');
    }
    if (tok.t === 'op') {
      throw new QuerySyntaxError(
        tok.op === 'NOT'
          ? 'NOT needs a word or phrase before it: write "library NOT archive" (pages with library, without archive)'
          : `${tok.op} needs a word or phrase before it`,
      );
    }
    if (tok.t === ')') throw new QuerySyntaxError(after ? `${after} needs a word or phrase after it` : 'unmatched ")"');
    this.i++;
    if (tok.t === '(') {
      // Each level is a few stack frames: a limit keeps a crafted query from overflowing the stack.
      if (++this.depth > MAX_NESTING) throw new QuerySyntaxError(`parentheses nested more than ${MAX_NESTING} deep`);
      const inner = this.or();
      this.depth--;
      if (this.peek()?.t !== ')') throw new QuerySyntaxError('unmatched "(": close it with ")"');
      this.i++;
      return inner;
    }
    return quoted(tok);
  }

  private isOp(op: 'AND' | 'OR' | 'NOT'): boolean {
    const t = this.peek();
    return t !== undefined && t.t === 'op' && t.op === op;
  }
}

function describe(t: Token): string {
  return t.t === 'term' ? `"${t.text}"` : t.t === 'op' ? t.op : `"${t.t}"`;
}

/** The FTS5 MATCH expression for what the user typed; words without a letter or digit are dropped. */
export function toFtsQuery(query: string): string {
  if (query.length > SEARCH_QUERY_MAX_CHARS) throw new QuerySyntaxError(`the query is ${query.length} characters long; at most ${SEARCH_QUERY_MAX_CHARS} are taken`);
  const tokens = tokenize(query).filter((t) => t.t !== 'term' || WORD_CHAR.test(t.text));
  if (tokens.length === 0) throw new QuerySyntaxError('empty query: type a word or a "phrase"');
  return new Parser(tokens).parse();
}

/** Whether an FTS5 query toFtsQuery made is one phrase (a word, words in quotes, or a prefix): one quoted string. */
export function isOnePhrase(ftsQuery: string): boolean {
  return /^"[^"]*"\*?$/.test(ftsQuery);
}

/** Whether a query (one toFtsQuery accepts) asks for a prefix anywhere, `word*`. */
export function hasPrefix(query: string): boolean {
  return tokenize(query).some((t) => t.t === 'term' && t.prefix && WORD_CHAR.test(t.text));
}

/** The words and phrases a query looks for (not those after NOT), each once, with whether it is a prefix (`word*`). */
export function queryHighlights(query: string): { text: string; prefix: boolean }[] {
  let tokens: Token[];
  try {
    tokens = tokenize(query);
  } catch {
    tokens = tokenize(query.replaceAll('"', ' '));
  }
  const out = new Map<string, { text: string; prefix: boolean }>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    if (t.t === 'term' && WORD_CHAR.test(t.text) && !(prev?.t === 'op' && prev.op === 'NOT')) {
      // A word asked for both whole and as a prefix is highlighted as the prefix (the wider of the two).
      const seen = out.get(t.text);
      out.set(t.text, { text: t.text, prefix: t.prefix || (seen?.prefix ?? false) });
    }
  }
  return [...out.values()];
}

/** The words a query looks for (not those after NOT), for highlighting them in a page. */
export function queryTerms(query: string): string[] {
  return queryHighlights(query).map((t) => t.text);
}
