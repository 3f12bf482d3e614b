import { linkThresholdOf, type Template } from '../../../shared/template.js';
import type { TopicState } from '../store/focusStore.js';
import type { DuplicateMemory } from './duplicateMemory.js';
import { LINK_ADVANCES, LINK_NEXT_PAGE, type FocusRequest, type PageAnalysis } from './pageAnalysisTypes.js';

/**
 * A focused harvest's decisions on one page, from the template and the scores the document worker
 * computed: what the page is (relevant, off-topic, a near-duplicate of an earlier page), which of its
 * links are followed and with what queue score. A URL's queue score is its filter level plus its
 * link score (below 1), so every URL of a deeper level goes before those of the level above ("each
 * level's matches replace the previous queue", without forgetting it), and within a level the best
 * first. Where the pages judged so far are kept is the caller's (a local catalogue, or PostgreSQL
 * for a cluster harvest): the judge only reads and extends a DuplicateMemory.
 */

/** The highest score within a level: seeds, next pages of a matching listing, requisites. */
export const TOP = 0.999;

export interface PageVerdict {
  level: number;
  relevance: number;
  topicState: TopicState;
  duplicateOf: number | null;
  /** A next-page link here continues the listing. */
  continues: boolean;
}

export interface LinkPlan {
  score: number;
  /** Not followed: found on an off-topic page and its own score did not pass. */
  pruned: boolean;
}

export class FocusJudge {
  readonly finalLevel: number;
  private readonly linkThreshold: number;

  constructor(readonly template: Template) {
    this.finalLevel = template.filters.length;
    this.linkThreshold = linkThresholdOf(template);
  }

  get seedScore(): number {
    return TOP;
  }

  /** The filter level a queue score stands for (null, as a URL queued without one: level 0). */
  levelOf(score: number | null | undefined): number {
    return Math.min(this.finalLevel, Math.max(0, Math.floor(score ?? 0)));
  }

  /**
   * What the document worker is asked for; `extract` false: the previous capture's fields stand.
   * Fields are read from final pages and from relevant pages of any level (PageAnalyzer).
   */
  request(score: number | null | undefined, extract = true): FocusRequest {
    const level = this.levelOf(score);
    return { level, extract: extract && Object.keys(this.template.extract).length > 0 };
  }

  /** Judges page `id` against `memory`, which remembers it unless it repeats a page already there. */
  judge(id: number, score: number | null | undefined, a: PageAnalysis, memory: DuplicateMemory): PageVerdict {
    const level = this.levelOf(score);
    const hash = BigInt(`0x${a.simhash}`);
    const duplicateOf = memory.original(hash, a.digest, id);
    let topicState: TopicState;
    if (duplicateOf !== null) topicState = 'near-duplicate';
    else {
      topicState = a.relevance >= this.template.topic.threshold ? 'relevant' : 'off-topic';
      memory.add(hash, a.digest, id);
    }
    return { level, relevance: a.relevance, topicState, duplicateOf, continues: topicState === 'relevant' || a.matchesLevel };
  }

  /** The queue score of link `i` of a judged page, or that it is pruned. */
  link(v: PageVerdict, a: PageAnalysis, i: number): LinkPlan {
    const score = a.linkScores[i] ?? -1;
    // Requisites go with their page.
    if (score < 0) return { score: v.level + TOP, pruned: false };
    const flags = a.linkFlags[i] ?? 0;
    const advances = (flags & LINK_ADVANCES) !== 0 && v.level < this.finalLevel;
    const next = (flags & LINK_NEXT_PAGE) !== 0 && v.continues;
    const level = advances ? v.level + 1 : v.level;
    if (next) return { score: level + TOP, pruned: false };
    const passes = v.topicState === 'relevant' || advances || (a.linkOwn[i] ?? 0) >= this.linkThreshold;
    return { score: level + Math.min(TOP, score), pruned: !passes };
  }
}
