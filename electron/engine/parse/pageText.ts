import type { HtmlScanHandler, StartTag } from './htmlScan.js';
import { markWordBreaks } from './wordBreaks.js';

/** What a search index keeps of a document: what a reader sees, CJK words marked (see wordBreaks.ts). */
export interface DocumentText {
  title: string;
  /** Text of the h1–h6 headings, one per line. */
  headings: string;
  /** All visible text in document order (headings included), one line per block. */
  body: string;
}

/** A page's text beyond this is left out of the index (a few hundred printed pages). */
export const MAX_TEXT_CHARS = 512 * 1024;

/** Elements that flow inside a line: their boundaries are not word boundaries. Any other tag is. */
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins',
  'kbd', 'label', 'mark', 'nobr', 'q', 'rb', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong',
  'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);

/** Elements whose text no reader sees as the page's content (script and style are skipped by scanHtml). */
/** (SVG's <title> and <desc> are tooltips too; its <text> is drawn, so kept.) */
const UNSEEN = new Set(['title', 'desc', 'template', 'noscript', 'select', 'datalist']);

const HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const WHITESPACE_RUN = /[\t\n\f\r ]+/g;
/** C0 controls other than whitespace: nothing a reader sees, and the index uses two as snippet marks. */
const CONTROLS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g;

/**
 * Stands for a line break among a block's raw pieces until value(), so that the pieces' own newlines
 * become spaces and only these become lines: a lone surrogate, which text rarely holds (entities
 * decode one to U+FFFD; iconv-lite passes a UTF-16 page's through, and add() replaces those so).
 */
const LINE = '\uDFFF';
const LINE_RUN = / ?\uDFFF[\s\uDFFF]*/g;

/**
 * A bounded sink of text pieces, one line per block. Pieces are kept as they come and cleaned once,
 * joined, in value(): a page has thousands of text nodes, and a regular expression and a slice each
 * cost the PostgreSQL manual's pages some 0.1 ms apiece. The result is cleanText's of the pieces
 * collapsed one by one and joined with newlines.
 */
class Lines {
  private readonly parts: string[] = [];
  /** Characters kept so far, raw; once they could reach the bound, counted collapsed (exact). */
  private chars = 0;
  private exact = false;

  add(piece: string): void {
    if (piece.includes(LINE)) piece = piece.replaceAll(LINE, '\uFFFD');
    if (!this.exact) {
      // Raw lengths bound the collapsed ones: below the limit nothing can be cut.
      if (this.chars + piece.length < MAX_TEXT_CHARS) {
        this.parts.push(piece);
        this.chars += piece.length;
        return;
      }
      this.exact = true;
      this.chars = this.parts.reduce((n, p) => n + (p === LINE ? 0 : p.replace(WHITESPACE_RUN, ' ').length), 0);
    }
    if (this.chars >= MAX_TEXT_CHARS) return;
    const p = piece.slice(0, MAX_TEXT_CHARS - this.chars).replace(WHITESPACE_RUN, ' ');
    this.parts.push(p);
    this.chars += p.length;
  }

  breakLine(): void {
    if (this.parts.length > 0 && this.parts[this.parts.length - 1] !== LINE) this.parts.push(LINE);
  }

  value(): string {
    // cleanText's steps, with every whitespace run of the pieces collapsed in the same pass.
    const text = this.parts.join('').replace(CONTROLS, '').replace(WHITESPACE_RUN, ' ').replace(LINE_RUN, '\n').trim();
    return markWordBreaks(text);
  }
}

/** Collapses spaces within lines, drops empty lines and control characters, marks CJK words. */
export function cleanText(text: string): string {
  return markWordBreaks(
    text
      .replace(CONTROLS, '')
      .replace(/[ \t\f\r]+/g, ' ')
      .replace(/ ?\n[\s]*/g, '\n')
      .trim(),
  );
}

/**
 * Collects a page's visible text while it is scanned (beside the reference collector, over the same
 * tokens: see teeHandlers), in linear time and bounded memory, without building a tree.
 */
export class PageTextCollector implements HtmlScanHandler {
  private readonly body = new Lines();
  private readonly headings = new Lines();
  private unseenDepth = 0;
  private headingDepth = 0;

  startTag(tag: StartTag): void {
    if (!INLINE.has(tag.name)) this.body.breakLine();
    if (tag.selfClosing) return;
    if (UNSEEN.has(tag.name)) this.unseenDepth++;
    else if (HEADING.has(tag.name)) this.headingDepth++;
  }

  endTag(name: string): void {
    if (!INLINE.has(name)) this.body.breakLine();
    if (UNSEEN.has(name)) this.unseenDepth = Math.max(0, this.unseenDepth - 1);
    else if (HEADING.has(name) && this.headingDepth > 0) {
      this.headingDepth--;
      if (this.headingDepth === 0) this.headings.breakLine();
    }
  }

  text(text: string): void {
    if (this.unseenDepth > 0) return;
    this.body.add(text);
    if (this.headingDepth > 0) this.headings.add(text);
  }

  doctype(): void {}

  finish(title: string | null): DocumentText {
    return { title: cleanText(title ?? ''), headings: this.headings.value(), body: this.body.value() };
  }
}

/** One scan feeding several collectors. */
export function teeHandlers(a: HtmlScanHandler, b: HtmlScanHandler): HtmlScanHandler {
  return {
    startTag(tag) {
      a.startTag(tag);
      b.startTag(tag);
    },
    endTag(name, start) {
      a.endTag(name, start);
      b.endTag(name, start);
    },
    text(text) {
      a.text(text);
      b.text(text);
    },
    doctype(end) {
      a.doctype(end);
      b.doctype(end);
    },
  };
}
