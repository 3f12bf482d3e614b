import { parseArgs } from 'node:util';
import { Archive } from '../engine/store/archive.js';
import { MARK_END, MARK_START, SearchError, TEXT_KINDS, TextIndex, type SearchHit, type TextKind } from '../engine/store/textIndex.js';
import { UsageError } from './usage.js';


const DEFAULT_LIMIT = 20;

/** A snippet as an HTML fragment: the text escaped, matched words in <mark>. */
export function snippetHtml(snippet: string): string {
  return snippet
    .replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`)
    .replaceAll(MARK_START, '<mark>')
    .replaceAll(MARK_END, '</mark>');
}

/** The JSON form of a hit: absolute original URL, capture number and date, snippet as HTML. */
export function hitJson(h: SearchHit): { url: string; title: string | null; capture: { id: number; date: string | null }; snippet: string; score: number } {
  return { url: h.url, title: h.title, capture: { id: h.capture, date: h.fetchedAt }, snippet: snippetHtml(h.snippet), score: h.score };
}

/** When more texts match than are ranked, which were: said wherever the hits are shown. */
export function rankedNote(r: { total: number; ranked: number }): string {
  return r.ranked < r.total ? `, ranked among the newest ${r.ranked} matching texts: add words to narrow` : '';
}

function positiveInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${flag} needs a whole number of at least 1, got '${v}'`, 'search');
  return Number(v);
}

/** `harvest search`: exit 0 whether or not anything matched, 2 for a bad query or an archive without an index. */
export async function runSearch(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, limit: { type: 'string' }, type: { type: 'string' }, capture: { type: 'string' } },
    });
  } catch (e) {
    throw new UsageError((e as Error).message, 'search');
  }
  const { values, positionals } = parsed;
  if (positionals.length < 2) throw new UsageError('search needs an archive folder and a query', 'search');
  const kind = values.type;
  if (kind !== undefined && !(TEXT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--type must be one of ${TEXT_KINDS.join(', ')}`, 'search');
  const limit = positiveInt(values.limit, 'limit') ?? DEFAULT_LIMIT;
  const capture = positiveInt(values.capture, 'capture');
  const dir = positionals[0]!;
  // Opening the catalogue checks that this is an archive; the index itself is another file.
  Archive.open(dir, { readonly: true }).close();
  const index = TextIndex.openReadonly(dir);
  if (index === null) throw new SearchError(`${dir} has no search index yet: build it with 'harvest reindex ${dir}'`);
  try {
    const query = positionals.slice(1).join(' ');
    const result = index.search(query, { limit, ...(kind !== undefined && { kind: kind as TextKind }), ...(capture !== undefined && { capture }) });
    if (values.json) {
      process.stdout.write(JSON.stringify({ total: result.total, ranked: result.ranked, hits: result.hits.map(hitJson) }) + '\n');
      return 0;
    }
    const bold = process.stdout.isTTY ? ['\x1b[1m', '\x1b[0m'] : ['[', ']'];
    const shown = result.total > result.hits.length ? ` (best ${result.hits.length} shown${rankedNote(result)})` : '';
    const lines = [`${result.total} ${result.total === 1 ? 'match' : 'matches'} for ${query}${shown}`];
    result.hits.forEach((h, i) => {
      lines.push(`${i + 1}. ${h.title || '(untitled)'} [${h.kind}]`, `   ${h.url}`, `   captured ${h.fetchedAt ?? 'unknown'} (capture ${h.capture}), score ${h.score}`);
      lines.push(`   ${h.snippet.replaceAll(MARK_START, bold[0]!).replaceAll(MARK_END, bold[1]!)}`);
    });
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } finally {
    index.close();
  }
}
