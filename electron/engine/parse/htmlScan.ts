/**
 * A flat stream of HTML start tags, end tags and text with exact source offsets, from htmlparser2's
 * Tokenizer. We use the Tokenizer rather than its Parser: the Parser keeps its open-element stack
 * with Array#unshift, which makes deeply nested markup quadratic (100k nested <div>s: ~4 s versus
 * ~35 ms here), and neither builds a tree that a recursive serialiser would have to walk.
 */
import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

export interface HtmlAttr {
  /** Lower-cased. */
  name: string;
  /** Entities decoded. */
  value: string;
  /** The whole attribute, name to end of value (closing quote included). */
  start: number;
  end: number;
  /** The value as written, quotes included; valueStart === valueEnd === end when there is none. */
  valueStart: number;
  valueEnd: number;
}

export interface StartTag {
  /** Lower-cased. */
  name: string;
  /** From '<' to just past '>'. */
  start: number;
  end: number;
  /** First occurrence of each name only, as browsers keep it. */
  attrs: HtmlAttr[];
  /** Written as `<x/>`; htmlparser2's tokenizer then also treats script/style as empty. */
  selfClosing: boolean;
}

export interface HtmlScanHandler {
  startTag(tag: StartTag): void;
  /** `start` is the index of '<'. */
  endTag(name: string, start: number): void;
  /** Character data, entities decoded; not called for the contents of script and style. */
  text(text: string): void;
  /** A `<!DOCTYPE …>` ending just before `end`. */
  doctype(end: number): void;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

const EQUALS = 0x3d;

/** Script and style contents reach us as text but are not text a reader sees. */
const HIDDEN_TEXT_ELEMENTS = new Set(['script', 'style']);

/** Tokenizes the whole document, calling `handler` in document order. Never throws on malformed markup. */
export function scanHtml(source: string, handler: HtmlScanHandler): void {
  let tagName = '';
  let tagStart = 0;
  let attrs: HtmlAttr[] = [];
  let seen = new Set<string>();
  let attrName = '';
  let attrStart = 0;
  let attrNameEnd = 0;
  let attrValue = '';
  /** Set while inside script/style, whose text is skipped. */
  let hiddenTextIn: string | null = null;

  /** Where the value starts: past `=`, whitespace, and the opening quote (already validated by the tokenizer). */
  const valueStartAfter = (nameEnd: number): number => {
    let i = nameEnd;
    while (isSpace(source.charCodeAt(i))) i++;
    if (source.charCodeAt(i) === EQUALS) i++;
    while (isSpace(source.charCodeAt(i))) i++;
    return i;
  };

  const emitStartTag = (endIndex: number, selfClosing: boolean): void => {
    handler.startTag({ name: tagName, start: tagStart, end: endIndex + 1, attrs, selfClosing });
    if (!selfClosing && HIDDEN_TEXT_ELEMENTS.has(tagName)) hiddenTextIn = tagName;
  };

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, endIndex) {
      tagName = source.slice(start, endIndex).toLowerCase();
      tagStart = start - 1;
      attrs = [];
      seen = new Set();
    },
    onattribname(start, endIndex) {
      attrName = source.slice(start, endIndex).toLowerCase();
      attrStart = start;
      attrNameEnd = endIndex;
      attrValue = '';
    },
    onattribdata(start, endIndex) {
      attrValue += source.slice(start, endIndex);
    },
    onattribentity(codepoint) {
      attrValue += String.fromCodePoint(codepoint);
    },
    onattribend(quote, endIndex) {
      if (seen.has(attrName)) return;
      seen.add(attrName);
      const valueStart = quote === QuoteType.NoValue ? endIndex : valueStartAfter(attrNameEnd);
      attrs.push({ name: attrName, value: attrValue, start: attrStart, end: endIndex, valueStart, valueEnd: endIndex });
    },
    onopentagend(endIndex) {
      emitStartTag(endIndex, false);
    },
    onselfclosingtag(endIndex) {
      emitStartTag(endIndex, true);
    },
    onclosetag(start, endIndex) {
      const name = source.slice(start, endIndex).toLowerCase();
      if (name === hiddenTextIn) hiddenTextIn = null;
      handler.endTag(name, start - 2);
    },
    ontext(start, endIndex) {
      if (hiddenTextIn === null) handler.text(source.slice(start, endIndex));
    },
    ontextentity(codepoint) {
      if (hiddenTextIn === null) handler.text(String.fromCodePoint(codepoint));
    },
    ondeclaration(start, endIndex) {
      if (source.slice(start, start + 7).toLowerCase() === 'doctype') handler.doctype(endIndex + 1);
    },
    oncdata() {},
    oncomment() {},
    onprocessinginstruction() {},
    onend() {},
  };

  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, callbacks);
  tokenizer.write(source);
  tokenizer.end();
}
