import type { HighlightTerm } from './search.js';

/**
 * Highlighting a search's words in the archived page the viewer shows. The page is in a
 * cross-origin frame, so the app can't reach its DOM: it posts the words to the frame, and the
 * script the archive servers add to each page (shared/frameLocation.ts) marks them. The words are
 * only ever text here, never markup; a page's own script could post itself words too, which marks
 * its own text and nothing else.
 */
export const HIGHLIGHT_MESSAGE = 'harvest:highlight';

export function highlightMessage(terms: HighlightTerm[]): { type: string; terms: HighlightTerm[] } {
  return { type: HIGHLIGHT_MESSAGE, terms };
}

/** The little of the DOM markTerms uses: shared/ also compiles for Node, without the DOM library. */
interface DomDocument {
  createTreeWalker(root: unknown, whatToShow: number): { nextNode(): unknown };
  createDocumentFragment(): { appendChild(node: unknown): unknown };
  createTextNode(text: string): unknown;
  createElement(tag: string): DomElement;
}
interface DomElement {
  tagName: string;
  ownerDocument: DomDocument;
  textContent: string | null;
  closest(selector: string): unknown;
  setAttribute(name: string, value: string): void;
  scrollIntoView?(opts: { block: 'center' }): void;
}
interface DomText {
  data: string;
  parentElement: DomElement | null;
  parentNode: { replaceChild(node: unknown, child: unknown): unknown } | null;
}

/**
 * Wraps every occurrence of the terms in `root`'s text in `<mark data-harvest-mark>`, as the index
 * matches them: case and accents folded (cafe marks café), a word starting at a word boundary and,
 * unless it is a prefix, ending at one; in scripts written without spaces (Chinese, Japanese, Thai)
 * anywhere. Scrolls the first into view; returns how many were marked. Self-contained: its source
 * is what the archive servers add to pages, so it must use nothing from outside.
 */
export function markTerms(root: DomElement, terms: { text: string; prefix: boolean }[]): number {
  const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const wordChar = /[\p{L}\p{N}]/u;
  const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
  const wanted = terms
    .map((t) => ({ text: fold(t.text), prefix: t.prefix }))
    .filter((t) => t.text.length > 0)
    .sort((a, b) => b.text.length - a.text.length);
  if (wanted.length === 0) return 0;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const nodes: DomText[] = [];
  for (let n = walker.nextNode() as DomText | null; n; n = walker.nextNode() as DomText | null) {
    const parent = n.parentElement;
    if (parent && !/^(SCRIPT|STYLE|NOSCRIPT|TEXTAREA|TITLE)$/i.test(parent.tagName) && !parent.closest('mark[data-harvest-mark]')) nodes.push(n);
  }
  let count = 0;
  let first: DomElement | null = null;
  for (const node of nodes) {
    const original = node.data;
    // The folded text, and for each of its characters the offset of the original one it came from.
    let folded = '';
    const from: number[] = [];
    for (let i = 0; i < original.length; ) {
      const cp = original.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      const f = fold(ch);
      for (let k = 0; k < f.length; k++) from.push(i);
      folded += f;
      i += ch.length;
    }
    from.push(original.length);
    const ranges: [number, number][] = [];
    for (let i = 0; i < folded.length; ) {
      let hit = 0;
      for (const t of wanted) {
        if (!folded.startsWith(t.text, i)) continue;
        const before = folded[i - 1];
        const after = folded[i + t.text.length];
        const cjk = unspaced.test(t.text);
        if (!cjk && before !== undefined && wordChar.test(before)) continue;
        if (!cjk && !t.prefix && after !== undefined && wordChar.test(after)) continue;
        // A prefix marks the whole word it starts.
        let end = i + t.text.length;
        while (t.prefix && !cjk && end < folded.length && wordChar.test(folded[end]!)) end++;
        hit = end - i;
        break;
      }
      if (hit === 0) {
        i++;
        continue;
      }
      ranges.push([from[i]!, from[i + hit]!]);
      i += hit;
    }
    if (ranges.length === 0) continue;
    const frag = doc.createDocumentFragment();
    let at = 0;
    for (const [start, end] of ranges) {
      if (start > at) frag.appendChild(doc.createTextNode(original.slice(at, start)));
      const mark = doc.createElement('mark');
      mark.setAttribute('data-harvest-mark', '');
      mark.textContent = original.slice(start, end);
      frag.appendChild(mark);
      first ??= mark;
      count++;
      at = end;
    }
    if (at < original.length) frag.appendChild(doc.createTextNode(original.slice(at)));
    node.parentNode!.replaceChild(frag, node);
  }
  if (first && typeof first.scrollIntoView === 'function') first.scrollIntoView({ block: 'center' });
  return count;
}

/**
 * The page's side: words posted by the app window (its parent, and only that) are marked once the
 * document is parsed. Registered before the page reports its location, so the app's answer to that
 * report always finds it listening.
 */
export const HIGHLIGHT_SCRIPT =
  `(function(){var mark=${markTerms.toString()};` +
  `window.addEventListener('message',function(e){var d=e.data;` +
  `if(e.source!==parent||!d||d.type!=='${HIGHLIGHT_MESSAGE}'||!Array.isArray(d.terms))return;` +
  `var terms=d.terms.filter(function(t){return t&&typeof t.text==='string'&&t.text.length<=200}).slice(0,50);` +
  `var run=function(){if(document.body)mark(document.body,terms)};` +
  `if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',run,{once:true});else run()})})();`;
