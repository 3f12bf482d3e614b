/**
 * Word breaks for scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar).
 * SQLite's unicode61 tokenizer splits words at separators only, so a run of Han or kana would be one
 * "word" as long as the sentence. Intl.Segmenter (ICU's dictionary-based word breaker, built into
 * Node and Electron) finds the words, and a ZERO WIDTH SPACE goes between them: unicode61 treats it
 * as a separator, and it is invisible in snippets. The same function runs on the query, so a query
 * word splits exactly as the same word in a page's text does, and matches as a phrase of its parts.
 */

export const WORD_BREAK = '\u200B';

const UNSPACED_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u3005\\u30FC]';
const UNSPACED_RUN = new RegExp(`${UNSPACED_CHAR}{2,}`, 'gu');

/** Whether `char` (one code point) is of those scripts. */
export const isUnspacedChar = (char: string): boolean => UNSPACED_ONE.test(char);
const UNSPACED_ONE = new RegExp(`^${UNSPACED_CHAR}$`, 'u');

/**
 * The blocks those scripts' characters lie in (any astral character too): a text with none of them
 * skips the script-property search, which costs a tenth of a millisecond on an average page of Latin
 * text. Curly quotes, dashes and bullets (U+2000–U+206F) are outside, so English pages skip it.
 */
const MAYBE_UNSPACED_CHAR = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u19E0-\u19FF\u2E80-\u9FFF\uA9E0-\uA9FF\uAA60-\uAA7F\uF900-\uFAFF\uFF66-\uFF9D\uD800-\uDBFF]/;

/** False only when `text` has no character of those scripts. */
export const mayBeUnspaced = (text: string): boolean => MAYBE_UNSPACED_CHAR.test(text);

let segmenter: Intl.Segmenter | null = null;

function words(run: string): string {
  // One segmenter serves every script: ICU picks the dictionary by script, not by locale.
  segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  let out = '';
  for (const { segment } of segmenter.segment(run)) out += out === '' ? segment : WORD_BREAK + segment;
  return out;
}

/** `text` with a WORD_BREAK between the words of every unspaced run. */
export function markWordBreaks(text: string): string {
  return mayBeUnspaced(text) ? text.replace(UNSPACED_RUN, words) : text;
}

/** Text as a reader sees it again: the breaks markWordBreaks added, and any the source had, removed. */
export function withoutWordBreaks(text: string): string {
  return text.replaceAll(WORD_BREAK, '');
}
