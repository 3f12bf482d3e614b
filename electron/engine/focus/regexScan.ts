import type { FieldPattern } from './fieldPattern.js';

/**
 * A template's regex run over a whole page. On a backtracking engine even a pattern without nested
 * repeats (`[^@\s]+@[^@\s]+`, once the README's own e-mail example) takes time quadratic in the
 * length of a run it can't match (45 s on 150 kB of text without spaces), so a page is scanned
 * line by line in windows of WINDOW_CHARS overlapping by OVERLAP_CHARS: the cost is linear in the
 * page, a window's bounded, and (with the template schema refusing patterns that could backtrack
 * exponentially; see shared/regexRisk.ts) so is each window's. A value shorter than OVERLAP_CHARS
 * is always found whole in some window; a match touching a window's cut edge is not taken, since
 * it may be part of a longer value. The scan also stops at a deadline.
 */
const WINDOW_CHARS = 256;
const OVERLAP_CHARS = 96;
/** What regex scanning may take of one page. */
export const REGEX_PAGE_BUDGET_MS = 2_000;

/** The matches of `pattern` in `text`, in order, until `deadlineMs` (epoch ms). */
export function* windowedMatches(pattern: FieldPattern, text: string, deadlineMs: number): Generator<string> {
  for (const line of text.split('\n')) {
    for (let start = 0; start < line.length; start += WINDOW_CHARS - OVERLAP_CHARS) {
      if (Date.now() > deadlineMs) return;
      const window = line.slice(start, start + WINDOW_CHARS);
      const cutEnd = start + WINDOW_CHARS < line.length;
      for (const m of pattern.matchesAt(window)) {
        if ((start > 0 && m.index === 0) || (cutEnd && m.index + m.value.length === window.length)) continue;
        yield m.value;
      }
      if (!cutEnd) break;
    }
  }
}
