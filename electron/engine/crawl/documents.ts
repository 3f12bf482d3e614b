import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseCss } from '../parse/css.js';
import { parseHtml, type ParsedDoc } from '../parse/html.js';
import type { HtmlScanHandler } from '../parse/htmlScan.js';
import type { UrlRow } from '../store/catalogue.js';
import { GenerationalCache } from '../generationalCache.js';
import { canonicalize } from '../url/canonical.js';
import { predictedLocalPath } from '../url/localPath.js';

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

export function parseDocument(
  kind: 'html' | 'css',
  body: Buffer,
  url: string,
  contentType: string | null,
  withText = false,
  /** Also told every token of the HTML scan (a focused harvest collects the page's own text this way). */
  observer?: HtmlScanHandler,
): ParsedDoc {
  return kind === 'html' ? parseHtml(body, url, contentType, {}, { withText, ...(observer && { observer }) }) : parseCss(body, url, contentType);
}

/**
 * Memoises the pure URL computations of rewriting: the same navigation and asset references recur
 * on every page of a site, and canonicalising and mapping them is most of a page's rewriting cost.
 */
export class ReferenceMemo {
  private readonly canonical = new GenerationalCache<string, string | null>(16_384);
  /** Keyed by row id and type hint (see predictionKey): a number costs less to keep than the URL. */
  private readonly predicted = new GenerationalCache<number, string>(16_384);

  canonicalize(url: string): string | null {
    let c = this.canonical.get(url);
    if (c === undefined) {
      c = canonicalize(url);
      this.canonical.set(url, c);
    }
    return c;
  }

  /**
   * Where a reference to `target` should point in a saved copy right now: its file if archived, the
   * end of its redirect chain if known, its predicted file if still queued (checked again when the
   * crawl finishes), the copy an earlier capture kept of it (it failed or is gone now), or nowhere
   * (null: the reference stays absolute and works online).
   */
  plannedTarget(target: UrlRow, typeHint: string | null): string | null {
    switch (target.state) {
      case 'archived':
      case 'redirect':
        return target.local_path;
      case 'queued': {
        const hint = asTypeHint(typeHint ?? target.type_hint);
        const key = predictionKey(target.id, hint);
        let p = this.predicted.get(key);
        if (p === undefined) {
          p = predictedLocalPath(target.url, hint);
          this.predicted.set(key, p);
        }
        return p;
      }
      default:
        return target.local_path;
    }
  }
}

function predictionKey(id: number, hint: 'html' | 'css' | null): number {
  return id * 3 + (hint === 'html' ? 1 : hint === 'css' ? 2 : 0);
}

function asTypeHint(hint: string | null): 'html' | 'css' | null {
  return hint === 'html' || hint === 'css' ? hint : null;
}

/**
 * Where a reference points once the crawl has finished: only files that really exist (a URL's own,
 * the end of its redirect chain, or the copy an earlier capture kept of a URL gone since).
 */
export function finalTarget(target: UrlRow): string | null {
  return target.state === 'queued' ? null : target.local_path;
}

export function packOriginal(body: Buffer): Buffer {
  return deflateRawSync(body, { level: 1 });
}

export function unpackOriginal(packed: Buffer): Buffer {
  return inflateRawSync(packed);
}
