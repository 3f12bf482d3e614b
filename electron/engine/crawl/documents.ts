import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseCss } from '../parse/css.js';
import { parseHtml, type ExtractedLink, type ParsedDoc } from '../parse/html.js';
import type { LinkRow, UrlRow } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween, localPathFor } from '../url/localPath.js';

export type DocumentKind = 'html' | 'css' | 'other';

export function documentKind(contentType: string | null, url: string): DocumentKind {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'text/css') return 'css';
  if (mime === '') {
    const path = new URL(url).pathname.toLowerCase();
    if (path.endsWith('/') || path.endsWith('.html') || path.endsWith('.htm')) return 'html';
    if (path.endsWith('.css')) return 'css';
  }
  return 'other';
}

export function parseDocument(kind: 'html' | 'css', body: Buffer, url: string, contentType: string | null): ParsedDoc {
  return kind === 'html' ? parseHtml(body, url, contentType) : parseCss(body, url, contentType);
}

function contentTypeForHint(hint: string | null): string | null {
  if (hint === 'html') return 'text/html';
  if (hint === 'css') return 'text/css';
  return null;
}

/**
 * Where a reference to `target` should point in a saved copy right now: its file if archived, the
 * end of its redirect chain if known, its predicted file if still queued (checked again when the
 * crawl finishes), or nowhere (null: the reference stays absolute and works online).
 */
export function plannedTarget(target: UrlRow, typeHint: string | null): string | null {
  switch (target.state) {
    case 'archived':
    case 'redirect':
      return target.local_path;
    case 'queued':
      return localPathFor(target.url, contentTypeForHint(typeHint ?? target.type_hint));
    default:
      return null;
  }
}

/** Where a reference points once the crawl has finished: only files that really exist. */
export function finalTarget(target: UrlRow): string | null {
  return target.state === 'archived' || target.state === 'redirect' ? target.local_path : null;
}

export interface RenderedDocument {
  data: Buffer;
  links: LinkRow[];
}

/**
 * Rewrites a parsed document for the mirror. `resolve` gives each reference's target row (or
 * undefined for URLs the catalogue does not track, such as mailto:), and `place` says where it goes.
 */
export function renderDocument(
  doc: ParsedDoc,
  ownPath: string,
  resolve: (link: ExtractedLink, canonical: string) => UrlRow | undefined,
  place: (target: UrlRow, link: ExtractedLink) => string | null,
): RenderedDocument {
  const links: LinkRow[] = [];
  const data = doc.render((link) => {
    const canonical = canonicalize(link.url);
    if (canonical === null) return null;
    const target = resolve(link, canonical);
    if (!target) return null;
    const written = place(target, link);
    links.push({ toId: target.id, kind: link.kind, text: link.text || null, written });
    return written === null ? null : hrefBetween(ownPath, written, link.fragment || undefined);
  });
  return { data, links };
}

export function packOriginal(body: Buffer): Buffer {
  return deflateRawSync(body, { level: 1 });
}

export function unpackOriginal(packed: Buffer): Buffer {
  return inflateRawSync(packed);
}
