import { resolveRef } from './resolve.js';
import type { ExtractedLink, LinkKind, TypeHint } from './types.js';

/** One reference found in a document, before and after resolution. */
export interface RefSlot {
  raw: string;
  kind: LinkKind;
  requisite: boolean;
  typeHint: TypeHint;
  text: string;
  queryCharset: string;
  /** Index into the document's links once resolved; null leaves the reference as written. */
  link: number | null;
}

export function newSlot(
  raw: string,
  kind: LinkKind,
  requisite: boolean,
  typeHint: TypeHint,
  queryCharset: string,
): RefSlot {
  return { raw, kind, requisite, typeHint, text: '', queryCharset, link: null };
}

/**
 * A span of the source that render() may replace:
 * refs: text holding references; `write` gets each slot's new reference (null: leave that one as
 *   written) and returns the span's replacement. Kept verbatim when none of its slots resolved.
 * drop-if-local: removed when any of its slots was rewritten to a local copy (SRI, CORS attributes).
 * text: always replaced by `text`.
 */
export type Field =
  | { type: 'refs'; start: number; end: number; slots: RefSlot[]; write(refs: (string | null)[]): string }
  | { type: 'drop-if-local'; start: number; end: number; slots: RefSlot[] }
  | { type: 'text'; start: number; end: number; text: string };

/**
 * Turns slots into links in document order. A reference to a fragment of this very document
 * (`#top`) works unchanged offline and is left alone.
 */
export function resolveSlots(slots: RefSlot[], base: string, docUrl: string): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const docWithoutFragment = docUrl.split('#')[0];
  for (const slot of slots) {
    const target = resolveRef(slot.raw, base, slot.queryCharset);
    if (target === null) continue;
    if (slot.raw.trim().startsWith('#') && target.url === docWithoutFragment) continue;
    slot.link = links.length;
    links.push({
      url: target.url,
      fragment: target.fragment,
      kind: slot.kind,
      requisite: slot.requisite,
      typeHint: slot.typeHint,
      text: slot.text,
    });
  }
  return links;
}

/** A field holding exactly one reference, written by `format`. */
export function singleRefField(start: number, end: number, slot: RefSlot, format: (ref: string) => string): Field {
  // renderFields calls write only when some slot resolved; with one slot, its ref is set.
  return { type: 'refs', start, end, slots: [slot], write: ([ref]) => format(ref ?? '') };
}

export function absoluteRef(link: ExtractedLink): string {
  return link.fragment === '' ? link.url : `${link.url}#${link.fragment}`;
}

/** The source with every field replaced; `map` is called once per link, in order. Fields must be sorted and disjoint. */
export function renderFields(
  source: string,
  fields: readonly Field[],
  links: readonly ExtractedLink[],
  map: (link: ExtractedLink) => string | null,
): string {
  const chosen = links.map((link) => map(link));
  const newRef = (slot: RefSlot): string | null => {
    if (slot.link === null) return null;
    const link = links[slot.link];
    return chosen[slot.link] ?? (link === undefined ? null : absoluteRef(link));
  };
  const isLocal = (slot: RefSlot): boolean => slot.link !== null && (chosen[slot.link] ?? null) !== null;

  const parts: string[] = [];
  let pos = 0;
  for (const field of fields) {
    parts.push(source.slice(pos, field.start));
    const original = source.slice(field.start, field.end);
    if (field.type === 'text') {
      parts.push(field.text);
    } else if (field.type === 'drop-if-local') {
      parts.push(field.slots.some(isLocal) ? '' : original);
    } else {
      const refs = field.slots.map(newRef);
      parts.push(refs.every((r) => r === null) ? original : field.write(refs));
    }
    pos = field.end;
  }
  parts.push(source.slice(pos));
  return parts.join('');
}
