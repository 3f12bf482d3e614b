import type { LinkKind, TypeHint } from '../parse/types.js';
import type { PreparedLink } from './documentWork.js';

/**
 * A page's links as they cross from a document worker to the crawl loop: one array per field
 * instead of one object per link. Cloning objects writes every property name of every link again;
 * arrays of strings and booleans clone about three times as fast (300 links: some 105 against 300
 * µs to serialise and read back), and a page's links were most of what the workers sent.
 */
export interface LinkColumns {
  url: string[];
  fragment: string[];
  kind: LinkKind[];
  requisite: boolean[];
  typeHint: TypeHint[];
  text: string[];
  /** '' when the canonical URL is the URL itself, as for most links (a URL is never ''); null when it has none. */
  canonical: (string | null)[];
}

export function linksToColumns(links: readonly PreparedLink[]): LinkColumns {
  const n = links.length;
  const c: LinkColumns = { url: new Array(n), fragment: new Array(n), kind: new Array(n), requisite: new Array(n), typeHint: new Array(n), text: new Array(n), canonical: new Array(n) };
  for (let i = 0; i < n; i++) {
    const l = links[i]!;
    c.url[i] = l.url;
    c.fragment[i] = l.fragment;
    c.kind[i] = l.kind;
    c.requisite[i] = l.requisite;
    c.typeHint[i] = l.typeHint;
    c.text[i] = l.text;
    c.canonical[i] = l.canonical === l.url ? '' : l.canonical;
  }
  return c;
}

export function linksFromColumns(c: LinkColumns): PreparedLink[] {
  const links: PreparedLink[] = new Array(c.url.length);
  for (let i = 0; i < links.length; i++) {
    const url = c.url[i]!;
    const canonical = c.canonical[i]!;
    links[i] = { url, fragment: c.fragment[i]!, kind: c.kind[i]!, requisite: c.requisite[i]!, typeHint: c.typeHint[i]!, text: c.text[i]!, canonical: canonical === '' ? url : canonical };
  }
  return links;
}
