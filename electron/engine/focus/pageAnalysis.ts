import type { Template } from '../../../shared/template.js';
import { decodeText } from '../parse/decode.js';
import { GenerationalCache } from '../generationalCache.js';
import type { ExtractedLink } from '../parse/types.js';
import { contentFingerprint } from './contentFingerprint.js';
import { FieldExtractor } from './extract.js';
import { linkScore, ownLinkScore } from './linkScore.js';
import { NextPageLabels } from './nextPage.js';
import { LINK_ADVANCES, LINK_NEXT_PAGE, type FocusRequest, type PageAnalysis } from './pageAnalysisTypes.js';
import { FocusTextCollector } from './pageText.js';
import { relevanceOf } from './relevance.js';
import { listMatcher, topicMatcher, type KeywordMatcher } from './topic.js';
import { tokenize, urlTokens } from './tokens.js';

/** Words scored per page at most: enough to judge a page, and a bound on the cost of a huge one. */
const MAX_WORDS = 20_000;
/** Anchor texts and URLs remembered: navigation repeats them on every page of a site. */
const LINK_MEMO = 8_192;

/** The template compiled once per document worker. */
/** Chromium's HTML parser builds no deeper tree (kMaximumHTMLParserDOMTreeDepth: deeper elements go beside their parent). */
export const MAX_DOM_DEPTH = 512;

export class PageAnalyzer {
  private readonly topic: KeywordMatcher;
  private readonly filters: KeywordMatcher[];
  private readonly next: NextPageLabels;
  private readonly extractor: FieldExtractor;
  private readonly shingle: number;
  private readonly finalLevel: number;
  private readonly threshold: number;
  private readonly anchorWords = new GenerationalCache<string, string[]>(LINK_MEMO);
  private readonly urlWords = new GenerationalCache<string, string[]>(LINK_MEMO);

  constructor(template: Template) {
    this.shingle = template.nearDuplicate.shingle;
    this.finalLevel = template.filters.length;
    this.threshold = template.topic.threshold;
    this.topic = topicMatcher(template);
    this.filters = template.filters.map(listMatcher);
    this.next = new NextPageLabels(template.nextPage);
    this.extractor = new FieldExtractor(template.extract);
  }

  private memo(cache: GenerationalCache<string, string[]>, key: string, make: (key: string) => string[]): string[] {
    let words = cache.get(key);
    if (words === undefined) {
      words = make(key);
      cache.set(key, words);
    }
    return words;
  }

  /** A collector to pass to the HTML scan. */
  collector(): FocusTextCollector {
    return new FocusTextCollector();
  }

  analyze(text: FocusTextCollector, links: readonly ExtractedLink[], body: Buffer, charset: string, req: FocusRequest): PageAnalysis {
    const page = text.result();
    const words = tokenize(page.text, MAX_WORDS);
    const titleWords = tokenize(page.title, 100);
    const relevance = relevanceOf(this.topic, words, titleWords);
    const filter = this.filters[req.level];
    const linkScores: number[] = [];
    const linkOwn: number[] = [];
    const linkFlags: number[] = [];
    for (const link of links) {
      if (link.requisite) {
        linkScores.push(-1);
        linkOwn.push(-1);
        linkFlags.push(0);
        continue;
      }
      const anchor = this.memo(this.anchorWords, link.text, (t) => tokenize(t, 100));
      const inUrl = this.memo(this.urlWords, link.url, urlTokens);
      linkOwn.push(anchor.length === 0 ? 0 : relevanceOf(this.topic, anchor));
      linkScores.push(linkScore(ownLinkScore(this.topic, anchor, inUrl), relevance));
      let flags = 0;
      if (filter !== undefined && (filter.any(anchor) || filter.any(inUrl))) flags |= LINK_ADVANCES;
      if (this.next.matches(link.text)) flags |= LINK_NEXT_PAGE;
      linkFlags.push(flags);
    }
    const reachedThrough = req.level > 0 ? this.filters[req.level - 1] : undefined;
    // A relevant page holds what the harvest is after wherever the filters led to it.
    const extract = req.extract && (req.level === this.finalLevel || relevance >= this.threshold);
    return {
      relevance,
      ...contentFingerprint(page.main, body, this.shingle),
      linkScores,
      linkOwn,
      linkFlags,
      matchesLevel: reachedThrough !== undefined && (reachedThrough.any(words) || reachedThrough.any(titleWords)),
      // A DOM of a page nested deeper than any browser builds costs seconds (parse5's tree
      // building is quadratic in the depth): such a page is not read for fields.
      fields: extract ? (text.maxDepth > MAX_DOM_DEPTH ? [] : this.extractor.extract(decodeText(body, charset))) : null,
    };
  }
}
