import { cssString, findCssRefs, spliceCssRefs, type CssRef } from './cssScan.js';
import type { HtmlAttr, HtmlScanHandler, StartTag } from './htmlScan.js';
import { parseRefresh } from './metaRefresh.js';
import { isCandidateRef } from './resolve.js';
import { newSlot, singleRefField, type Field, type RefSlot } from './splice.js';
import { parseSrcset, serializeSrcset } from './srcset.js';
import { collapseText, TextCollector } from './textCollector.js';
import type { LinkKind, TypeHint } from './types.js';

interface UrlAttrRule {
  attr: string;
  kind: LinkKind;
  requisite: boolean;
  typeHint: TypeHint;
}

const rule = (attr: string, kind: LinkKind, requisite = true, typeHint: TypeHint = null): UrlAttrRule => ({
  attr,
  kind,
  requisite,
  typeHint,
});

/** Attributes holding one URL, per element. <link>, <meta>, <base>, srcsets and CSS are handled apart. */
const URL_ATTRS: Readonly<Record<string, readonly UrlAttrRule[]>> = {
  a: [rule('href', 'a', false, 'html')],
  area: [rule('href', 'area', false, 'html')],
  img: [rule('src', 'img')],
  script: [rule('src', 'script')],
  iframe: [rule('src', 'iframe', true, 'html')],
  frame: [rule('src', 'frame', true, 'html')],
  video: [rule('src', 'media'), rule('poster', 'poster')],
  audio: [rule('src', 'media')],
  source: [rule('src', 'media')],
  track: [rule('src', 'track')],
  object: [rule('data', 'object')],
  embed: [rule('src', 'embed')],
  body: [rule('background', 'img')],
  table: [rule('background', 'img')],
  td: [rule('background', 'img')],
  th: [rule('background', 'img')],
  // SVG images and sprite sheets (<use href="icons.svg#x">).
  image: [rule('href', 'img'), rule('xlink:href', 'img')],
  use: [rule('href', 'img'), rule('xlink:href', 'img')],
};

/** Lazy-loading attributes scripts turn into src/srcset/background; any element may carry them. */
const LAZY_URL_ATTRS = ['data-src', 'data-original'];

/** <link rel> values whose target is needed to render the page. */
const REQUISITE_RELS = [
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'manifest',
  'preload',
  'modulepreload',
];
/** <link rel> values naming an origin to connect to, not a resource. */
const CONNECTION_HINT_RELS = new Set(['preconnect', 'dns-prefetch']);

const ANCHOR_TEXT_CHARS = 200;
const TITLE_CHARS = 1000;
export const UTF8_META = '<meta charset="utf-8">';

function attrOf(tag: StartTag, name: string): HtmlAttr | undefined {
  return tag.attrs.find((a) => a.name === name);
}

/** An attribute value as quoted HTML source; single quotes when that spares escaping (CSS with url("…")). */
function quoteAttr(value: string): string {
  const escaped = value.replace(/&/g, '&amp;');
  if (value.includes('"') && !value.includes("'")) return `'${escaped}'`;
  return `"${escaped.replace(/"/g, '&quot;')}"`;
}

interface OpenAnchor {
  slot: RefSlot | null;
  text: TextCollector;
  imgAlt: string;
  title: string;
}

export interface PageRefs {
  slots: RefSlot[];
  /** Sorted by position, disjoint. */
  fields: Field[];
  /** The first <base href> as written, if any. */
  baseHref: string | null;
  title: string | null;
  /** Source offset where `<meta charset="utf-8">` was inserted. */
  charsetMetaAt: number;
}

/**
 * Collects, while the page is scanned, every reference and every span render() must change:
 * URL attributes, srcsets, CSS in style attributes and <style> blocks, meta refresh, base href,
 * charset declarations and SRI attributes.
 */
export class PageRefCollector implements HtmlScanHandler {
  private readonly slots: RefSlot[] = [];
  private readonly fields: Field[] = [];
  private baseHref: string | null = null;
  private title: string | null = null;
  private titleText: TextCollector | null = null;
  private anchor: OpenAnchor | null = null;
  private svgDepth = 0;
  private styleStart: number | null = null;
  private headEnd: number | null = null;
  private htmlEnd: number | null = null;
  private doctypeEnd: number | null = null;

  constructor(
    private readonly source: string,
    private readonly charset: string,
    private readonly maxAttrLength: number,
  ) {}

  startTag(tag: StartTag): void {
    this.trackContext(tag);
    if (tag.name === 'base') return this.base(tag);
    if (tag.name === 'meta') return this.meta(tag);

    const own: RefSlot[] = [];
    for (const r of URL_ATTRS[tag.name] ?? []) own.push(...this.urlAttr(tag, r.attr, r.kind, r.requisite, r.typeHint));
    if (tag.name === 'link') own.push(...this.link(tag));
    if (tag.name === 'img') own.push(...this.srcsetAttr(tag, 'srcset', 'srcset'));
    if (tag.name === 'source') own.push(...this.srcsetAttr(tag, 'srcset', 'picture-source'));
    if (tag.name === 'input' && attrOf(tag, 'type')?.value.trim().toLowerCase() === 'image') {
      own.push(...this.urlAttr(tag, 'src', 'img', true, null));
    }
    this.dropIntegrityIfLocal(tag, own);

    if (tag.name === 'a') this.openAnchor(tag, own[0] ?? null);
    if (tag.name === 'area' && own[0] !== undefined) {
      own[0].text = collapseText(attrOf(tag, 'alt')?.value || attrOf(tag, 'title')?.value || '', ANCHOR_TEXT_CHARS);
    }
    if (tag.name === 'img' && this.anchor !== null && this.anchor.imgAlt === '') {
      this.anchor.imgAlt = attrOf(tag, 'alt')?.value ?? '';
    }

    this.cssAttr(tag, 'style', 'style-attr');
    for (const name of LAZY_URL_ATTRS) this.urlAttr(tag, name, 'lazy', true, null);
    this.srcsetAttr(tag, 'data-srcset', 'lazy');
    const bg = attrOf(tag, 'data-bg');
    if (bg !== undefined && /url\(/i.test(bg.value)) this.cssAttr(tag, 'data-bg', 'lazy');
    else this.urlAttr(tag, 'data-bg', 'lazy', true, null);
  }

  endTag(name: string, start: number): void {
    if (name === 'a') this.closeAnchor();
    else if (name === 'title') this.closeTitle();
    else if (name === 'svg') this.svgDepth = Math.max(0, this.svgDepth - 1);
    else if (name === 'style' && this.styleStart !== null) {
      this.styleBlock(this.styleStart, start);
      this.styleStart = null;
    }
  }

  text(text: string): void {
    this.anchor?.text.add(text);
    this.titleText?.add(text);
  }

  doctype(end: number): void {
    this.doctypeEnd ??= end;
  }

  /** Ends open constructs of a truncated page and returns what was collected. */
  finish(): PageRefs {
    this.closeAnchor();
    this.closeTitle();
    if (this.styleStart !== null) this.styleBlock(this.styleStart, this.source.length);
    const charsetMetaAt = this.headEnd ?? this.htmlEnd ?? this.doctypeEnd ?? 0;
    const meta = this.headEnd !== null ? UTF8_META : `<head>${UTF8_META}</head>`;
    this.fields.push({ type: 'text', start: charsetMetaAt, end: charsetMetaAt, text: meta });
    // Zero-width insertions sort before a span starting at the same offset.
    this.fields.sort((a, b) => a.start - b.start || a.end - b.end);
    return { slots: this.slots, fields: this.fields, baseHref: this.baseHref, title: this.title, charsetMetaAt };
  }

  private trackContext(tag: StartTag): void {
    if (tag.selfClosing) return;
    switch (tag.name) {
      case 'head':
        this.headEnd ??= tag.end;
        break;
      case 'html':
        this.htmlEnd ??= tag.end;
        break;
      case 'svg':
        this.svgDepth++;
        break;
      case 'style':
        this.styleStart = tag.end;
        break;
      case 'title':
        // SVG has its own <title> elements; the document title is the first HTML one.
        if (this.svgDepth === 0 && this.title === null && this.titleText === null) {
          this.titleText = new TextCollector(TITLE_CHARS);
        }
        break;
    }
  }

  private closeTitle(): void {
    if (this.titleText === null) return;
    this.title = this.titleText.value();
    this.titleText = null;
  }

  private openAnchor(tag: StartTag, slot: RefSlot | null): void {
    this.closeAnchor(); // <a> cannot nest: a new one ends the previous
    this.anchor = {
      slot,
      text: new TextCollector(ANCHOR_TEXT_CHARS),
      imgAlt: '',
      title: attrOf(tag, 'title')?.value ?? '',
    };
  }

  private closeAnchor(): void {
    const anchor = this.anchor;
    if (anchor === null) return;
    this.anchor = null;
    if (anchor.slot === null) return;
    anchor.slot.text =
      anchor.text.value() || collapseText(anchor.imgAlt, ANCHOR_TEXT_CHARS) || collapseText(anchor.title, ANCHOR_TEXT_CHARS);
  }

  /** An attribute worth reading for URLs; over-long ones are ignored (usually inline data). */
  private usableAttr(tag: StartTag, name: string): HtmlAttr | null {
    const attr = attrOf(tag, name);
    return attr === undefined || attr.value.length > this.maxAttrLength ? null : attr;
  }

  private addSlot(raw: string, kind: LinkKind, requisite: boolean, typeHint: TypeHint, queryCharset: string): RefSlot {
    const slot = newSlot(raw, kind, requisite, typeHint, queryCharset);
    this.slots.push(slot);
    return slot;
  }

  private urlAttr(tag: StartTag, name: string, kind: LinkKind, requisite: boolean, typeHint: TypeHint): RefSlot[] {
    const attr = this.usableAttr(tag, name);
    if (attr === null || !isCandidateRef(attr.value)) return [];
    const slot = this.addSlot(attr.value, kind, requisite, typeHint, this.charset);
    this.fields.push(singleRefField(attr.valueStart, attr.valueEnd, slot, quoteAttr));
    return [slot];
  }

  private srcsetAttr(tag: StartTag, name: string, kind: LinkKind): RefSlot[] {
    const attr = this.usableAttr(tag, name);
    if (attr === null) return [];
    const candidates = parseSrcset(attr.value);
    const slots: RefSlot[] = [];
    /** For each candidate, the index of its slot in `slots`, or null when it is kept as written. */
    const slotIndex = candidates.map((c) => {
      if (!isCandidateRef(c.url)) return null;
      slots.push(this.addSlot(c.url, kind, true, null, this.charset));
      return slots.length - 1;
    });
    if (slots.length === 0) return [];
    this.fields.push({
      type: 'refs',
      start: attr.valueStart,
      end: attr.valueEnd,
      slots,
      write: (refs) =>
        quoteAttr(
          serializeSrcset(
            candidates.map((c, k) => {
              const index = slotIndex[k];
              const url = index === null || index === undefined ? null : refs[index];
              return url === null || url === undefined ? c : { url, descriptors: c.descriptors };
            }),
          ),
        ),
    });
    return slots;
  }

  /** url() references in an attribute holding CSS (style, or data-bg="url(…)"). */
  private cssAttr(tag: StartTag, name: string, kind: LinkKind): void {
    const attr = this.usableAttr(tag, name);
    if (attr === null) return;
    const { refs, slots } = this.cssRefSlots(attr.value, kind);
    if (slots.length === 0) return;
    this.fields.push({
      type: 'refs',
      start: attr.valueStart,
      end: attr.valueEnd,
      slots,
      write: (urls) => quoteAttr(spliceCssRefs(attr.value, refs, urls)),
    });
  }

  private styleBlock(start: number, end: number): void {
    const { refs, slots } = this.cssRefSlots(this.source.slice(start, end), 'style-block');
    refs.forEach((ref, k) => {
      const slot = slots[k];
      if (slot !== undefined) this.fields.push(singleRefField(start + ref.start, start + ref.end, slot, cssString));
    });
  }

  /** The fetchable refs of some CSS with one slot each (same order); URLs in CSS are always UTF-8. */
  private cssRefSlots(css: string, kind: LinkKind): { refs: CssRef[]; slots: RefSlot[] } {
    const refs: CssRef[] = [];
    const slots: RefSlot[] = [];
    for (const ref of findCssRefs(css)) {
      if (!isCandidateRef(ref.raw)) continue;
      refs.push(ref);
      slots.push(this.addSlot(ref.raw, kind, true, ref.kind === 'css-import' ? 'css' : null, 'UTF-8'));
    }
    return { refs, slots };
  }

  private link(tag: StartTag): RefSlot[] {
    const rels = (attrOf(tag, 'rel')?.value ?? '').toLowerCase().split(/[\t\n\f\r ]+/).filter((r) => r !== '');
    if (rels.length > 0 && rels.every((r) => CONNECTION_HINT_RELS.has(r))) return [];
    const as = attrOf(tag, 'as')?.value.trim().toLowerCase();
    const stylesheet = rels.includes('stylesheet') || (rels.includes('preload') && as === 'style');
    const requisite = rels.some((r) => REQUISITE_RELS.includes(r));
    return this.urlAttr(tag, 'href', 'link', requisite, stylesheet ? 'css' : null);
  }

  /** Every <base href> goes: the first sets the base URL, and local links must resolve from the file itself. */
  private base(tag: StartTag): void {
    const href = attrOf(tag, 'href');
    if (href === undefined) return;
    this.baseHref ??= href.value;
    // Keep a <base target> working; a <base> with nothing else left goes entirely.
    const span = tag.attrs.length === 1 ? tag : href;
    this.fields.push({ type: 'text', start: span.start, end: span.end, text: '' });
  }

  private meta(tag: StartTag): void {
    const httpEquiv = attrOf(tag, 'http-equiv')?.value.trim().toLowerCase();
    if (attrOf(tag, 'charset') !== undefined || httpEquiv === 'content-type') {
      // The copy is UTF-8 whatever the original declared; render() adds the one declaration.
      this.fields.push({ type: 'text', start: tag.start, end: tag.end, text: '' });
      return;
    }
    if (httpEquiv !== 'refresh') return;
    const content = this.usableAttr(tag, 'content');
    const target = content === null ? null : parseRefresh(content.value);
    if (content === null || target === null || !isCandidateRef(target.url)) return;
    const slot = this.addSlot(target.url, 'meta-refresh', false, 'html', this.charset);
    const value = content.value;
    this.fields.push(
      singleRefField(content.valueStart, content.valueEnd, slot, (ref) =>
        quoteAttr(value.slice(0, target.start) + ref + value.slice(target.end)),
      ),
    );
  }

  /**
   * A rewritten copy no longer matches its SRI hash, and file:// cannot pass a CORS check, so both
   * attributes go when the element's own target is rewritten to a local file.
   */
  private dropIntegrityIfLocal(tag: StartTag, own: RefSlot[]): void {
    if (own.length === 0) return;
    for (const name of ['integrity', 'crossorigin']) {
      const attr = attrOf(tag, name);
      if (attr !== undefined) this.fields.push({ type: 'drop-if-local', start: attr.start, end: attr.end, slots: own });
    }
  }
}
