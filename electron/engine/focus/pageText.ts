import type { HtmlScanHandler, StartTag } from '../parse/htmlScan.js';
import { MainContent, type MainText } from './mainContent.js';

/**
 * Collects a page's own text while the document worker's tokenizer scans it for links (one scan
 * does both): the title apart, and the body without the text of links, navigation, headers,
 * footers and asides, which say what other pages are about. Bounded, so a huge page costs no more
 * than MAX_TEXT_CHARS. The same scan feeds the page's main content (mainContent.ts), which near-duplicates
 * are judged on.
 */
const EXCLUDED = new Set(['a', 'nav', 'header', 'footer', 'aside', 'select', 'button', 'template', 'noscript']);
export const MAX_TEXT_CHARS = 200_000;
const MAX_TITLE_CHARS = 1_000;

/** Elements without an end tag, and those whose end tag is implied by the next one (they never nest deep). */
const NOT_NESTING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'td', 'th', 'tr', 'option', 'optgroup', 'rt', 'rp',
]);

export class FocusTextCollector implements HtmlScanHandler {
  /** Deepest element nesting seen (elements that close themselves apart). */
  maxDepth = 0;
  private depth = 0;
  private readonly nesting = new Map<string, number>();
  private readonly parts: string[] = [];
  private chars = 0;
  private title = '';
  private inTitle = false;
  /** Open excluded elements by name; an <a> never nests, so a stray unclosed one counts once. */
  private readonly open = new Map<string, number>();
  private excludedDepth = 0;
  private readonly main = new MainContent(MAX_TEXT_CHARS);

  startTag(tag: StartTag): void {
    const nests = !tag.selfClosing && !NOT_NESTING.has(tag.name);
    if (nests) {
      this.nesting.set(tag.name, (this.nesting.get(tag.name) ?? 0) + 1);
      if (++this.depth > this.maxDepth) this.maxDepth = this.depth;
    }
    this.main.open(tag, this.depth, nests);
    if (tag.name === 'title') this.inTitle = !tag.selfClosing;
    else if (EXCLUDED.has(tag.name) && !tag.selfClosing) {
      const n = this.open.get(tag.name) ?? 0;
      if (tag.name === 'a' && n > 0) return;
      this.open.set(tag.name, n + 1);
      this.excludedDepth++;
    }
    this.separate();
  }

  endTag(name: string): void {
    const nested = this.nesting.get(name) ?? 0;
    if (nested > 0) {
      this.nesting.set(name, nested - 1);
      this.depth--;
    }
    this.main.close(name, this.depth, nested > 0);
    if (name === 'title') this.inTitle = false;
    else {
      const n = this.open.get(name) ?? 0;
      if (n > 0) {
        this.open.set(name, n - 1);
        this.excludedDepth--;
      }
    }
    this.separate();
  }

  text(text: string): void {
    if (this.inTitle) {
      if (this.title.length < MAX_TITLE_CHARS) this.title += text;
      return;
    }
    this.main.text(text);
    if (this.excludedDepth > 0 || this.chars >= MAX_TEXT_CHARS) return;
    const piece = text.length + this.chars > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS - this.chars) : text;
    this.parts.push(piece);
    this.chars += piece.length;
  }

  doctype(): void {}

  /** Words on either side of a tag are different words ("<td>Phone</td><td>0123</td>"). */
  private separate(): void {
    if (this.parts.length > 0 && this.parts[this.parts.length - 1] !== ' ') this.parts.push(' ');
  }

  result(): { title: string; text: string; main: MainText } {
    return { title: this.title, text: this.parts.join(''), main: this.main.result() };
  }
}
