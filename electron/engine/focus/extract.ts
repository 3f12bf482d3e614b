import * as cheerio from 'cheerio';
import type { parseDocument } from 'htmlparser2';
import type { ExtractField } from '../../../shared/template.js';
import { REGEX_PAGE_BUDGET_MS, windowedMatches } from './regexScan.js';

/**
 * Field extraction from a final page: each field's labels (keywords and synonyms, any language)
 * are found in the page, and the value is what stands next to the label: the next cell of a table
 * row, the <dd> of a <dt>, the text after a bold label, the rest of "Label: value" in running text.
 * The label's tag weighs in the confidence (a header cell or term is a surer label than a span).
 * A field's regex, when given, must match the value (its match is kept) and also finds values
 * no label names, at low confidence (never one a label gave another field). Runs on a DOM
 * (cheerio's, parse5 building the tree as a browser does: implied table bodies, unclosed cells and
 * paragraphs), on final pages only.
 */
export interface ExtractedValue {
  field: string;
  value: string;
  confidence: number;
}

/** cheerio's nodes are domhandler's, the types htmlparser2 (a dependency of its own) exports. */
type DomNode = ReturnType<typeof parseDocument>['children'][number];
type Element = Extract<DomNode, { name: string; children: unknown[] }>;

/** An element (domhandler types <script> and <style> apart, and both are skipped). */
function isElement(n: DomNode): n is Element {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

const LABEL_TAG_WEIGHT: Readonly<Record<string, number>> = {
  th: 0.95,
  dt: 0.95,
  label: 0.95,
  strong: 0.9,
  b: 0.9,
  em: 0.85,
  td: 0.9,
  span: 0.85,
  div: 0.8,
  p: 0.8,
  li: 0.8,
};
const INLINE_CONFIDENCE = 0.8;
const REGEX_ONLY_CONFIDENCE = 0.5;
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head']);
const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'code', 'em', 'font', 'i', 'small', 'span', 'strong', 'sub', 'sup', 'u']);
const MAX_LABEL_CHARS = 40;
const MAX_VALUE_CHARS = 300;
const WORDS_ONLY = /^[\p{L}\s'’-]+$/u;
/** Page chrome: a regex alone does not look here (a date in the header is no phone number). */
const CHROME = new Set(['header', 'footer', 'nav', 'aside']);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

interface CompiledField {
  name: string;
  labels: string[];
  regex: RegExp | null;
}

function normal(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function clean(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:：\-–—]+/, '')
    .replace(/[\s,;，；。|·]+$/, '')
    .trim()
    .slice(0, MAX_VALUE_CHARS);
}

export class FieldExtractor {
  private readonly fields: CompiledField[];
  /** "Label:" anywhere in running text, every field's labels at once, longest first. */
  private readonly inline: RegExp | null;
  private readonly labelField = new Map<string, string>();

  constructor(spec: Readonly<Record<string, ExtractField>>) {
    this.fields = Object.entries(spec).map(([name, f]) => ({
      name,
      labels: [...f.keywords, ...f.synonyms].map(normal),
      regex: f.regex === undefined ? null : new RegExp(f.regex, 'u'),
    }));
    const all: string[] = [];
    for (const f of this.fields) {
      for (const l of f.labels) {
        if (!this.labelField.has(l)) this.labelField.set(l, f.name);
        all.push(l);
      }
    }
    all.sort((a, b) => b.length - a.length);
    const alternatives = all.map((l) => (CJK.test(l[0]!) ? '' : '(?<![\\p{L}\\p{N}])') + escapeRegex(l).replace(/ /g, '\\s+'));
    this.inline = all.length === 0 ? null : new RegExp(`(${alternatives.join('|')})\\s*[:：]`, 'giu');
  }

  get active(): boolean {
    return this.fields.length > 0;
  }

  /** The field a short text labels ("Phone:", "Tel.", "联系电话"), by its longest matching label. */
  fieldOfLabel(text: string): string | null {
    const t = normal(text).replace(/[\s:：.。*]+$/, '');
    if (t === '' || t.length > MAX_LABEL_CHARS) return null;
    let best: { field: string; len: number } | null = null;
    for (const [label, field] of this.labelField) {
      const hit =
        t === label ||
        // "Phone number", "Office address", "联系电话": a label with a word or two more, never a value.
        (!CJK.test(label) && t.length <= label.length + 15 && (t.startsWith(label + ' ') || t.endsWith(' ' + label)) && WORDS_ONLY.test(t)) ||
        (CJK.test(label) && t.length <= label.length + 4 && t.includes(label) && !t.includes(' ') && WORDS_ONLY.test(t));
      if (hit && (best === null || label.length > best.len)) best = { field, len: label.length };
    }
    return best?.field ?? null;
  }

  /** One value per field found (the most confident; the first of equals). */
  extract(html: string): ExtractedValue[] {
    if (!this.active) return [];
    const doc = cheerio.load(html).root()[0]!;
    const best = new Map<string, ExtractedValue>();
    const offer = (field: string, raw: string, confidence: number) => {
      const f = this.fields.find((x) => x.name === field)!;
      let value = clean(raw);
      if (f.regex !== null) {
        const m = f.regex.exec(value);
        if (m === null) return;
        value = clean(m[0]);
      }
      if (value === '') return;
      const had = best.get(field);
      if (had === undefined || confidence > had.confidence) best.set(field, { field, value, confidence });
    };
    const texts: string[] = [];
    const main: string[] = [];
    this.walk(doc.children, offer, texts, main);
    this.inlineValues(texts.join(''), offer);
    const page = main.join('');
    const deadline = Date.now() + REGEX_PAGE_BUDGET_MS;
    for (const f of this.fields) {
      if (f.regex === null || best.has(f.name)) continue;
      // The first match that no label gave another field (a fax number is no phone number).
      const taken = new Set([...best.values()].map((v) => v.value));
      for (const m of windowedMatches(f.regex, page, deadline)) {
        if (taken.has(clean(m))) continue;
        offer(f.name, m, REGEX_ONLY_CONFIDENCE);
        break;
      }
    }
    return this.fields.flatMap((f) => best.get(f.name) ?? []);
  }

  /** Labels as elements of their own, with the value in the next sibling; collects text runs for the inline pass. */
  private walk(nodes: DomNode[], offer: (field: string, raw: string, confidence: number) => void, texts: string[], main: string[] | null): void {
    for (const node of nodes) {
      if (node.type === 'text') {
        if (node.data.trim() !== '') {
          texts.push(node.data);
          main?.push(node.data);
        }
        continue;
      }
      if (!isElement(node) || SKIPPED.has(node.name)) continue;
      if (node.name === 'br') {
        texts.push('\n');
        main?.push('\n');
      }
      const weight = LABEL_TAG_WEIGHT[node.name];
      if (weight !== undefined) {
        const text = textOf(node);
        const field = text.length <= MAX_LABEL_CHARS * 2 ? this.fieldOfLabel(text) : null;
        if (field !== null) {
          const value = valueAfter(node);
          if (value !== null) offer(field, value, weight);
          continue;
        }
      }
      this.walk(node.children, offer, texts, CHROME.has(node.name) ? null : main);
      // Block ends split running text, so one cell's "Label:" never reads the next cell as its value.
      if (!INLINE_TAGS.has(node.name)) {
        texts.push('\n');
        main?.push('\n');
      }
    }
  }

  private inlineValues(text: string, offer: (field: string, raw: string, confidence: number) => void): void {
    if (this.inline === null) return;
    for (const line of text.split('\n')) {
      const hits = [...line.matchAll(this.inline)];
      hits.forEach((m, i) => {
        const field = this.fieldOfLabel(m[1]!);
        if (field === null) return;
        const end = i + 1 < hits.length ? hits[i + 1]!.index : line.length;
        offer(field, line.slice(m.index + m[0].length, end), INLINE_CONFIDENCE);
      });
    }
  }
}

/** The text of what follows a label element: its next non-empty sibling (element or text). */
function valueAfter(node: DomNode): string | null {
  for (let n = node.next; n !== null; n = n.next) {
    const text = isElement(n) ? (n.name === 'br' ? '' : innerText(n)) : n.type === 'text' ? n.data : '';
    if (text.trim() !== '') return text;
  }
  return null;
}

/** Text with <br> and block ends as spaces (an address on several lines stays one value). */
function innerText(node: DomNode): string {
  if (node.type === 'text') return node.data;
  if (!isElement(node) || SKIPPED.has(node.name)) return '';
  if (node.name === 'br') return ' ';
  return node.children.map(innerText).join('') + ' ';
}

/** All the text under a node, as the DOM's textContent. */
function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data;
  return isElement(node) ? node.children.map(textOf).join('') : '';
}
