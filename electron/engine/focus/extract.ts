import * as cheerio from 'cheerio';
import type { ExtractField } from '../../../shared/template.js';
import { isElement, textOf, type DomNode, type Element } from './dom.js';
import { FieldPattern } from './fieldPattern.js';
import { REGEX_PAGE_BUDGET_MS, windowedMatches } from './regexScan.js';
import { PROPERTY_LABELS, structuredValues, type SchemaProperty } from './structuredData.js';

/**
 * Field extraction from a final page: each field's labels (keywords and synonyms, any language)
 * are found in the page, and the value is what stands next to the label: the next cell of a table
 * row, the <dd> of a <dt>, the text after a bold label, the rest of "Label: value" in running text.
 * A label heading a column of a table (its row all labels) gives the cells below it. A value is
 * never itself a label (a label with its value missing is followed by the next label, not a value).
 * The label's tag weighs in the confidence (a header cell or term is a surer label than a span).
 * A field's regex, when given, must match the value (each match is a value, leftmost-longest:
 * fieldPattern.ts) and also finds values no label names, at low confidence (never one a label gave
 * another field). schema.org data the page carries (JSON-LD, microdata, RDFa) is read first: a
 * field it gives takes its values from there alone (confidence 1). A field keeps every value found
 * at its best level (structured data, labels, or the regex alone). Runs on a DOM (cheerio's, parse5
 * building the tree as a browser does: implied table bodies, unclosed cells and paragraphs).
 */
export interface ExtractedValue {
  field: string;
  /** The values found, one a line (a cleaned value holds no line break), the surest first. */
  value: string;
  confidence: number;
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
const STRUCTURED_CONFIDENCE = 1;
/** Values found through a label, at any of the labels' confidences, are kept together. */
const LABEL_LEVEL = INLINE_CONFIDENCE;
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
  regex: FieldPattern | null;
  /** The schema.org properties the field's labels name. */
  properties: SchemaProperty[];
}

type Offer = (field: string, raw: string, confidence: number) => void;

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
    // A sentence's full stop after a word, not an abbreviation's ("St.", "Co.").
    .replace(/(?<=\p{L}{4})\.$/u, '')
    .trim()
    .slice(0, MAX_VALUE_CHARS);
}

export class FieldExtractor {
  private readonly fields: CompiledField[];
  /** "Label:" anywhere in running text, every field's labels at once, longest first. */
  private readonly inline: RegExp | null;
  private readonly labelField = new Map<string, string>();
  /** Cells a column's label took as values, in the page being read: values, never labels. */
  private readonly cellsBelowLabels = new Set<DomNode>();

  constructor(spec: Readonly<Record<string, ExtractField>>) {
    this.fields = Object.entries(spec).map(([name, f]) => ({
      name,
      labels: [...f.keywords, ...f.synonyms].map(normal),
      regex: f.regex === undefined ? null : new FieldPattern(f.regex),
      properties: [],
    }));
    for (const f of this.fields) {
      for (const [property, labels] of Object.entries(PROPERTY_LABELS)) if (f.labels.some((l) => labels.includes(l))) f.properties.push(property as SchemaProperty);
    }
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

  /** Exactly a label ("Phone", "Fax:"): never a value. "Billing Team" is a value, though "team" labels a field. */
  private isLabel(text: string): boolean {
    return this.labelField.has(normal(text).replace(/[\s:：.。*]+$/, ''));
  }

  /** Per field found, its values at the best level they were found at. */
  extract(html: string): ExtractedValue[] {
    if (!this.active) return [];
    this.cellsBelowLabels.clear();
    const doc = cheerio.load(html).root()[0]!;
    const found = new Map<string, { value: string; confidence: number }[]>();
    const offer: Offer = (field, raw, confidence) => {
      const f = this.fields.find((x) => x.name === field)!;
      const cleaned = clean(raw);
      const values = f.regex === null ? [cleaned] : [...f.regex.matches(cleaned)].map(clean);
      for (const value of values) {
        if (value === '' || this.isLabel(value)) continue;
        const list = found.get(field) ?? [];
        found.set(field, list);
        const had = list.find((v) => v.value === value);
        if (had === undefined) list.push({ value, confidence });
        else had.confidence = Math.max(had.confidence, confidence);
      }
    };
    const structured = structuredValues(doc.children);
    for (const f of this.fields) for (const v of structured) if (f.properties.includes(v.property)) offer(f.name, v.value, STRUCTURED_CONFIDENCE);
    const texts: string[] = [];
    const main: string[] = [];
    this.walk(doc.children, offer, texts, main);
    this.inlineValues(texts.join(''), offer);
    const page = main.join('');
    const deadline = Date.now() + REGEX_PAGE_BUDGET_MS;
    for (const f of this.fields) {
      if (f.regex === null || found.has(f.name)) continue;
      // The first match that no label gave another field (a fax number is no phone number).
      const taken = new Set([...found.values()].flat().map((v) => v.value));
      for (const m of windowedMatches(f.regex, page, deadline)) {
        if (taken.has(clean(m))) continue;
        offer(f.name, m, REGEX_ONLY_CONFIDENCE);
        break;
      }
    }
    return this.fields.flatMap((f) => {
      const list = found.get(f.name);
      if (list === undefined) return [];
      const best = Math.max(...list.map((v) => v.confidence));
      const floor = best === STRUCTURED_CONFIDENCE || best < LABEL_LEVEL ? best : LABEL_LEVEL;
      const kept = list.filter((v) => v.confidence >= floor).sort((x, y) => y.confidence - x.confidence);
      return [{ field: f.name, value: kept.map((v) => v.value).join('\n'), confidence: best }];
    });
  }

  /** Labels as elements of their own, with the value in the next sibling; collects text runs for the inline pass. */
  private walk(nodes: DomNode[], offer: Offer, texts: string[], main: string[] | null): void {
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
      if (weight !== undefined && !this.cellsBelowLabels.has(node)) {
        const text = textOf(node);
        const field = text.length <= MAX_LABEL_CHARS * 2 ? this.fieldOfLabel(text) : null;
        if (field !== null) {
          const column = this.columnBelow(node);
          if (column !== null) for (const value of column) offer(field, value, weight);
          else {
            const value = valueAfter(node);
            if (value !== null && !this.isLabel(value)) offer(field, value, weight);
          }
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

  /** A header cell of a row of labels: the cells below it, else null. */
  private columnBelow(cell: Element): string[] | null {
    const row = cell.parent;
    if ((cell.name !== 'th' && cell.name !== 'td') || row === null || !('name' in row) || row.name !== 'tr') return null;
    const cells = row.children.filter((c): c is Element => isElement(c) && (c.name === 'th' || c.name === 'td'));
    // Every cell exactly a label: "Planning Department" beside "Name" is a value, though "department" labels a field.
    if (cells.length < 2 || !cells.every((c) => this.isLabel(textOf(c)))) return null;
    const index = cells.indexOf(cell);
    let table: DomNode | null = row.parent;
    while (table !== null && !('name' in table && table.name === 'table')) table = table.parent;
    if (table === null) return null;
    const rows = [...rowsOf(table)];
    return rows.slice(rows.indexOf(row) + 1).flatMap((r) => {
      const c = r.children.filter((x): x is Element => isElement(x) && (x.name === 'th' || x.name === 'td'))[index];
      if (c === undefined) return [];
      this.cellsBelowLabels.add(c);
      return [innerText(c)];
    });
  }

  private inlineValues(text: string, offer: Offer): void {
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

/** The rows of a table, not of tables inside it. */
function* rowsOf(node: DomNode): Generator<Element> {
  if (!isElement(node)) return;
  for (const c of node.children) {
    if (!isElement(c) || c.name === 'table') continue;
    if (c.name === 'tr') yield c;
    else yield* rowsOf(c);
  }
}
