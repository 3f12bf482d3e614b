import type { DocumentText } from './pageText.js';

/** Where in a document a reference was found. */
export type LinkKind =
  | 'a'
  | 'area'
  | 'link'
  | 'img'
  | 'srcset'
  | 'picture-source'
  | 'script'
  | 'iframe'
  | 'frame'
  | 'media'
  | 'track'
  | 'poster'
  | 'object'
  | 'embed'
  | 'meta-refresh'
  | 'style-attr'
  | 'style-block'
  | 'css-url'
  | 'css-import'
  | 'lazy';

export type TypeHint = 'html' | 'css' | null;

export interface ExtractedLink {
  /** Absolute http(s) URL (resolved against <base href> or the document URL), fragment removed, not otherwise canonicalised. */
  url: string;
  /** The fragment without '#'; '' if none. */
  fragment: string;
  kind: LinkKind;
  /** Needed to render the page (images, CSS, scripts, fonts, media, frames…) rather than navigation. */
  requisite: boolean;
  /** What the target most likely is. */
  typeHint: TypeHint;
  /** Anchor text for a/area (whitespace-collapsed, at most 200 characters); '' otherwise. */
  text: string;
}

export interface ParsedDoc {
  /** WHATWG name of the encoding the source was decoded from. */
  charset: string;
  title: string | null;
  /** The visible text, when asked for (HTML only). */
  text?: DocumentText;
  /** In order of appearance, not deduplicated. */
  links: ExtractedLink[];
  /**
   * The rewritten document, UTF-8. `map` is called once per link, in order; what it returns is written
   * verbatim as the new reference, so it must carry the fragment itself if one is wanted (see
   * link.fragment). null writes the absolute URL plus fragment, so the reference still works online.
   */
  render(map: (link: ExtractedLink) => string | null): Buffer;
}
