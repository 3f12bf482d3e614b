import { diffArrays } from 'diff';

/** Words compared per side: a longer page is judged by its beginning. */
const MAX_WORDS = 10_000;
/** Past this many edits the two texts differ too much for the exact distance to matter. */
const MAX_EDITS = 4_000;

/**
 * How alike two texts are, 0..1: one minus the word-level edit distance (insertions and deletions,
 * Myers) over the words of both. Two empty texts match. When the texts differ by more than
 * MAX_EDITS words, the share of words they have in common stands in for it (an upper bound).
 */
export function textMatch(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  const total = wa.length + wb.length;
  if (total === 0) return 1;
  const diff = diffArrays(wa, wb, { maxEditLength: MAX_EDITS });
  if (diff === undefined) return common(wa, wb) / total;
  let edits = 0;
  for (const part of diff) if (part.added || part.removed) edits += part.count ?? part.value.length;
  return 1 - edits / total;
}

function words(text: string): string[] {
  const all = text.split(/\s+/).filter((w) => w !== '');
  return all.length > MAX_WORDS ? all.slice(0, MAX_WORDS) : all;
}

/** Twice the words the two lists share (as multisets). */
function common(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(w, n - 1);
    }
  }
  return 2 * shared;
}
