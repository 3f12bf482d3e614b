import type { StartTag } from '../parse/htmlScan.js';

/**
 * A page's main content, for near-duplicate judgement: the text of its blocks once page chrome is
 * taken out, so a print version, a syndicated copy in another site's chrome and the original read
 * alike. Taken out: navigation, header, footer and aside elements; elements whose class or id names
 * chrome (Readability's "unlikely candidates": menu, sidebar, banner, share, footer ...); and blocks
 * that are mostly link text (link lists, "related" boxes; Boilerpipe's link density, Kohlschütter
 * et al. 2010). What the page holds in link-list blocks is counted, so a page that is mostly links
 * (a sitemap, an index, a tag page) can be told apart: it is never judged by its vocabulary.
 */

const CHROME_ELEMENTS = new Set(['nav', 'header', 'footer', 'aside', 'select', 'button', 'template', 'noscript']);
/** Readability's unlikelyCandidates and okMaybeItsACandidate, on class and id. */
const UNLIKELY = /-ad-|banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|foot|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|share/i;
const MAYBE = /and|article|body|column|content|main|shadow/i;
const NEVER_UNLIKELY = new Set(['html', 'body', 'main', 'article']);
/** Elements that do not break a block of text. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'img', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr']);
/** A block with more of its characters in links than this is a link list (Boilerpipe's threshold). */
export const MAX_BLOCK_LINK_DENSITY = 1 / 3;

export interface MainText {
  /** The kept blocks' text, blocks separated by a line break. */
  text: string;
  /** Of the characters outside chrome, the share in link-list blocks or links: near 1 for a sitemap. */
  linkShare: number;
}

export class MainContent {
  private readonly kept: string[] = [];
  private block: string[] = [];
  private blockChars = 0;
  private blockLinkChars = 0;
  private inLink = 0;
  private chars = 0;
  private linkChars = 0;
  /** Open chrome elements (by name, as the page's text collector counts them) and the depth an unlikely class began at. */
  private chromeOpen = 0;
  private unlikelyAt = 0;

  constructor(private readonly maxChars: number) {}

  /** `depth`: the element nesting once the tag is open (unchanged for an element that does not nest). */
  open(tag: StartTag, depth: number, nests: boolean): void {
    if (!INLINE.has(tag.name)) this.flush();
    if (tag.name === 'a' && !tag.selfClosing) this.inLink = 1;
    if (tag.selfClosing || !nests) return;
    if (CHROME_ELEMENTS.has(tag.name)) this.chromeOpen++;
    else if (this.unlikelyAt === 0 && !NEVER_UNLIKELY.has(tag.name) && unlikely(tag)) this.unlikelyAt = depth;
  }

  /** `depth`: the nesting once the element is closed; `nested`: the end tag closed an element that nests. */
  close(name: string, depth: number, nested: boolean): void {
    if (!INLINE.has(name)) this.flush();
    if (name === 'a') this.inLink = 0;
    if (!nested) return;
    if (CHROME_ELEMENTS.has(name)) this.chromeOpen = Math.max(0, this.chromeOpen - 1);
    else if (this.unlikelyAt > 0 && depth < this.unlikelyAt) this.unlikelyAt = 0;
  }

  text(text: string): void {
    if (this.chromeOpen > 0 || this.unlikelyAt > 0 || this.chars >= this.maxChars) return;
    const n = text.trim().length;
    if (n === 0) {
      this.block.push(' ');
      return;
    }
    this.block.push(text);
    this.blockChars += n;
    if (this.inLink > 0) this.blockLinkChars += n;
  }

  private flush(): void {
    if (this.blockChars > 0) {
      this.chars += this.blockChars;
      if (this.blockLinkChars / this.blockChars > MAX_BLOCK_LINK_DENSITY) this.linkChars += this.blockChars;
      else {
        this.linkChars += this.blockLinkChars;
        this.kept.push(this.block.join(''));
      }
    }
    this.block = [];
    this.blockChars = 0;
    this.blockLinkChars = 0;
  }

  result(): MainText {
    this.flush();
    return { text: this.kept.join('\n'), linkShare: this.chars === 0 ? 0 : this.linkChars / this.chars };
  }
}

function unlikely(tag: StartTag): boolean {
  let names = '';
  for (const a of tag.attrs) if (a.name === 'class' || a.name === 'id') names += ` ${a.value}`;
  return names !== '' && UNLIKELY.test(names) && !MAYBE.test(names);
}
