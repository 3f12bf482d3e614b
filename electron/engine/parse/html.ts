import { decodeText, sniffCharset } from './decode.js';
import { PageRefCollector, UTF8_META } from './htmlRefs.js';
import { scanHtml, type HtmlScanHandler } from './htmlScan.js';
import { PageTextCollector, teeHandlers } from './pageText.js';
import { renderFields, resolveSlots } from './splice.js';
import type { ParsedDoc } from './types.js';

export type { ExtractedLink, LinkKind, ParsedDoc, TypeHint } from './types.js';

export interface ParseCaps {
  /** Larger documents are saved unparsed: no links, render() returns the original bytes. */
  maxParseBytes: number;
  /** Longer URL-bearing attributes are ignored (they are inline data, not links). */
  maxAttrLength: number;
}

export const DEFAULT_PARSE_CAPS: Readonly<ParseCaps> = {
  maxParseBytes: 8 * 1024 * 1024,
  maxAttrLength: 8192,
};

/** Browsers look for a <meta charset> in the first 1024 bytes of a file that has no HTTP headers. */
const META_PRESCAN_BYTES = 1024;
const UTF8_BOM = '\uFEFF';

/** The base URL: the first <base href> resolved against the document, or the document itself. */
function baseUrl(baseHref: string | null, docUrl: string): string {
  if (baseHref === null) return docUrl;
  try {
    return new URL(baseHref, docUrl).href;
  } catch {
    return docUrl;
  }
}

function unparsed(body: Buffer, charset: string): ParsedDoc {
  return { charset, title: null, links: [], render: () => body };
}

/**
 * Parses an HTML page once: its links (resolved, in order) and a renderer for the offline copy. The
 * copy is the source with only the references, <base href>, charset declarations and SRI attributes
 * changed, so everything else (doctype, comments, inline scripts, entities) stays byte-for-byte.
 */
export function parseHtml(
  body: Buffer,
  docUrl: string,
  headerContentType: string | null,
  caps: Partial<ParseCaps> = {},
  /** observer: also told every token of the same scan (a focused harvest collects the page's own text this way). */
  opts: { withText?: boolean; observer?: HtmlScanHandler } = {},
): ParsedDoc {
  const limits: ParseCaps = { ...DEFAULT_PARSE_CAPS, ...caps };
  const charset = sniffCharset(body, headerContentType, 'html');
  if (body.length > limits.maxParseBytes) return unparsed(body, charset);

  const source = decodeText(body, charset);
  const collector = new PageRefCollector(source, charset, limits.maxAttrLength);
  const text = opts.withText ? new PageTextCollector() : null;
  const withText = text === null ? collector : teeHandlers(collector, text);
  scanHtml(source, opts.observer === undefined ? withText : teeHandlers(withText, opts.observer));
  const page = collector.finish();
  const links = resolveSlots(page.slots, baseUrl(page.baseHref, docUrl), docUrl);
  // Opened from disk there is no HTTP charset; if our <meta> would fall past the prescan window, a BOM says UTF-8.
  const needsBom = Buffer.byteLength(source.slice(0, page.charsetMetaAt)) + UTF8_META.length > META_PRESCAN_BYTES;

  return {
    charset,
    title: page.title,
    ...(text !== null && { text: text.finish(page.title) }),
    links,
    render(map) {
      const html = renderFields(source, page.fields, links, map);
      return Buffer.from(needsBom ? UTF8_BOM + html : html, 'utf8');
    },
  };
}
