import { elementsOf, textOf, type DomNode, type Element } from './dom.js';

/**
 * schema.org contact data a page states about itself, read before its visible labels: JSON-LD
 * (`<script type="application/ld+json">`), microdata (`itemprop`) and RDFa (`property`) of an
 * Organization (or any thing with contact details), its PostalAddress and ContactPoints. A postal
 * address is given as its street and locality ("2 Ferry Road, Harbourtown"), its postal code apart.
 */
export type SchemaProperty = 'name' | 'telephone' | 'email' | 'faxNumber' | 'address' | 'postalCode';

/** The labels a template field may name a schema.org property by. */
export const PROPERTY_LABELS: Readonly<Record<SchemaProperty, readonly string[]>> = {
  name: ['name', 'organisation', 'organization'],
  telephone: ['telephone', 'phone', 'tel'],
  email: ['email', 'e-mail'],
  faxNumber: ['fax'],
  address: ['address'],
  postalCode: ['postcode', 'post code', 'postal code', 'zip', 'zip code'],
};

const CONTACT = new Set<string>(['telephone', 'email', 'faxNumber']);
const ADDRESS_PARTS = ['streetAddress', 'addressLocality'];
const NOT_NAMED = /PostalAddress|ContactPoint|PropertyValue/;

export interface SchemaValue {
  property: SchemaProperty;
  value: string;
}

export function structuredValues(root: readonly DomNode[]): SchemaValue[] {
  const out: SchemaValue[] = [];
  for (const el of elementsOf(root)) {
    if (el.name === 'script' && /^application\/ld\+json$/i.test((el.attribs['type'] ?? '').trim())) {
      try {
        fromJson(JSON.parse(textOf(el)) as unknown, out);
      } catch {
        // Malformed JSON-LD says nothing.
      }
    }
    const prop = propertyOf(el);
    if (prop === null) continue;
    const nested = 'itemscope' in el.attribs || 'typeof' in el.attribs;
    if (prop === 'address' && nested) {
      const parts = ADDRESS_PARTS.map((p) => [...elementsOf(el.children)].find((c) => propertyOf(c) === p)).flatMap((c) => (c === undefined ? [] : [valueOf(c)]));
      if (parts.length > 0) out.push({ property: 'address', value: parts.join(', ') });
    } else if (!nested && (prop === 'postalCode' || CONTACT.has(prop) || (prop === 'name' && !NOT_NAMED.test(itemTypeOf(el))))) {
      out.push({ property: prop as SchemaProperty, value: valueOf(el) });
    } else if (!nested && prop === 'address') out.push({ property: 'address', value: valueOf(el) });
  }
  return out.filter((v) => v.value.trim() !== '');
}

function propertyOf(el: Element): string | null {
  const p = el.attribs['itemprop'] ?? el.attribs['property'];
  return p === undefined ? null : p.trim().replace(/^schema:/, '');
}

/** The type of the item a property belongs to: its nearest itemscope/typeof ancestor's. */
function itemTypeOf(el: Element): string {
  for (let p = el.parent; p !== null && 'attribs' in p; p = p.parent) {
    const t = p.attribs['itemtype'] ?? p.attribs['typeof'];
    if (t !== undefined) return t;
  }
  return '';
}

function valueOf(el: Element): string {
  const href = el.attribs['href'];
  const fromHref = href !== undefined && /^(mailto|tel):/i.test(href) ? decodeURIComponent(href.replace(/^(mailto|tel):/i, '').split('?')[0]!) : undefined;
  return (el.attribs['content'] ?? fromHref ?? textOf(el)).replace(/\s+/g, ' ').trim();
}

function fromJson(node: unknown, out: SchemaValue[]): void {
  if (Array.isArray(node)) {
    for (const n of node) fromJson(n, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  const type = String(o['@type'] ?? '');
  const text = (k: string) => (typeof o[k] === 'string' || typeof o[k] === 'number' ? String(o[k]).trim() : null);
  if (/PostalAddress/.test(type)) {
    const parts = ADDRESS_PARTS.flatMap((k) => text(k) ?? []);
    if (parts.length > 0) out.push({ property: 'address', value: parts.join(', ') });
    const pc = text('postalCode');
    if (pc !== null) out.push({ property: 'postalCode', value: pc });
    return;
  }
  const name = text('name');
  if (name !== null && type !== '' && !NOT_NAMED.test(type)) out.push({ property: 'name', value: name });
  for (const k of CONTACT) {
    const v = o[k];
    for (const s of Array.isArray(v) ? v : [v]) if (typeof s === 'string') out.push({ property: k as SchemaProperty, value: s.trim() });
  }
  const address = o['address'];
  if (typeof address === 'string') out.push({ property: 'address', value: address.trim() });
  for (const k of ['address', 'contactPoint', '@graph']) if (typeof o[k] === 'object') fromJson(o[k], out);
}
