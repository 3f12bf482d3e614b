/**
 * Words of any language, for topic scoring and shingles. Letters and digits in runs, lower-cased
 * and NFKC-normalised (full-width Latin, compatibility forms), with common English endings folded
 * (flooding, floods → flood) so a keyword meets its inflections. Runs in scripts written without
 * spaces (Han, kana, Thai, Lao, Khmer, Myanmar) are split into words by ICU's word segmentation
 * (Intl.Segmenter); it costs some 3 µs per character here, so it is kept to those runs only.
 */

const RUN = /[\p{L}\p{M}\p{N}]+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | null = null;

function words(run: string, out: string[]): void {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const s of segmenter.segment(run)) if (s.isWordLike) out.push(s.segment);
}

/** Every script written without spaces lies at U+0E00 (Thai) or above: Latin text skips the script test. */
function mayBeUnspaced(run: string): boolean {
  for (let i = 0; i < run.length; i++) if (run.charCodeAt(i) >= 0x0e00) return true;
  return false;
}

/** The words of `text`, in order; at most `max` of them. */
export function tokenize(text: string, max = Infinity): string[] {
  const out: string[] = [];
  const normal = text.normalize('NFKC').toLowerCase();
  RUN.lastIndex = 0;
  for (let m = RUN.exec(normal); m !== null && out.length < max; m = RUN.exec(normal)) {
    const run = m[0];
    if (mayBeUnspaced(run) && UNSPACED.test(run)) words(run, out);
    else out.push(fold(run));
  }
  if (out.length > max) out.length = max;
  return out;
}

const ENDING = /^([a-z]{4,}?)(?:ing|ed|es|s)$/;

/** A light suffix fold for ASCII words of five letters or more; other words stay as they are. */
export function fold(word: string): string {
  if (word.length < 5) return word;
  const last = word.charCodeAt(word.length - 1);
  // Only words ending in s, d or g can carry one of the endings.
  if (last !== 0x73 && last !== 0x64 && last !== 0x67) return word;
  const m = ENDING.exec(word);
  return m === null || m[1]!.endsWith('s') ? word : m[1]!;
}

/** Words of a URL's host-less path and query: `/flood-risk/maps?page=2` → flood, risk, maps, page, 2. */
export function urlTokens(url: string): string[] {
  let rest: string;
  try {
    const u = new URL(url);
    rest = decodeURIComponentSafe(u.pathname + ' ' + u.search);
  } catch {
    rest = url;
  }
  return tokenize(rest.replace(/[_\-./?=&+%]+/g, ' '));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
