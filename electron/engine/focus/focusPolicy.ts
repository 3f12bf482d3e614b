import { linkThresholdOf, type Template } from '../../../shared/template.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';
import { harvestRateOf, type FocusCounts, type FocusStore, type TopicState } from '../store/focusStore.js';
import { sampleSeeds } from './crawlProbability.js';
import { LINK_ADVANCES, LINK_NEXT_PAGE, type FocusRequest, type PageAnalysis } from './pageAnalysisTypes.js';
import { NearDuplicateIndex } from './simhash.js';

/**
 * A focused harvest's decisions in the crawl loop, from the scores the document worker computed:
 * what a page is (relevant, off-topic, a near-duplicate of an earlier page), which of its links
 * are followed and in what order. A URL's queue score is its filter level plus its link score
 * (below 1), so every URL of a deeper level goes before those of the level above ("each level's
 * matches replace the previous queue", without forgetting it), and within a level the best first.
 */

/** The highest score within a level: seeds, next pages of a matching listing, requisites. */
const TOP = 0.999;
const DEFERRED_SEEDS = 'focus_deferred_seeds';
const SEED_RUNS = 'focus_seed_runs';

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

export class FocusPolicy {
  private readonly near: NearDuplicateIndex<number>;
  private readonly digests = new Map<string, number>();
  private readonly finalLevel: number;
  private readonly linkThreshold: number;
  private readonly tally: Omit<FocusCounts, 'harvestRate'>;

  constructor(
    private readonly template: Template,
    private readonly store: FocusStore,
  ) {
    this.finalLevel = template.filters.length;
    this.linkThreshold = linkThresholdOf(template);
    this.near = new NearDuplicateIndex(template.nearDuplicate.maxHamming);
    for (const p of store.originals()) {
      this.near.add(BigInt(`0x${p.simhash}`), p.urlId);
      if (!this.digests.has(p.digest)) this.digests.set(p.digest, p.urlId);
    }
    const { harvestRate: _, ...tally } = store.counts();
    this.tally = tally;
  }

  get seedScore(): number {
    return TOP;
  }

  counts(): FocusCounts {
    return { ...this.tally, harvestRate: harvestRateOf(this.tally) };
  }

  levelOf(row: Pick<QueuedRow, 'score'>): number {
    return Math.min(this.finalLevel, Math.max(0, Math.floor(row.score ?? 0)));
  }

  /** `extract` false: the page is as its previous capture had it, whose extracted rows stand. */
  request(row: QueuedRow, extract = true): FocusRequest {
    const level = this.levelOf(row);
    return { level, extract: extract && level === this.finalLevel && Object.keys(this.template.extract).length > 0 };
  }

  /** Judges a page and, unless it repeats one, remembers it for the pages after it. */
  judge(row: QueuedRow, a: PageAnalysis): PageVerdict {
    const level = this.levelOf(row);
    const hash = BigInt(`0x${a.simhash}`);
    let duplicateOf = this.digests.get(a.digest) ?? null;
    if (duplicateOf === row.id) duplicateOf = null;
    // A page without words has nothing to compare (every empty page would match every other).
    if (duplicateOf === null && hash !== 0n) {
      const hit = this.near.find(hash);
      if (hit !== null && hit.value !== row.id) duplicateOf = hit.value;
    }
    let topicState: TopicState;
    if (duplicateOf !== null) topicState = 'near-duplicate';
    else {
      topicState = a.relevance >= this.template.topic.threshold ? 'relevant' : 'off-topic';
      if (hash !== 0n) this.near.add(hash, row.id);
      if (!this.digests.has(a.digest)) this.digests.set(a.digest, row.id);
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

  /**
   * Stores the verdict (and the page's extracted fields) in the caller's transaction. A page judged
   * in an earlier capture is counted once, by its latest verdict. Fields are extracted only from a
   * page whose content changed (its request asked for them): an unchanged page keeps its rows.
   */
  record(row: QueuedRow, v: PageVerdict, a: PageAnalysis, capture: string): void {
    const before = this.store.stateOf(row.id);
    if (before !== null) this.count(before, -1);
    this.store.putPage({ urlId: row.id, relevance: v.relevance, topicState: v.topicState, duplicateOf: v.duplicateOf, simhash: a.simhash, digest: a.digest });
    this.count(v.topicState, 1);
    if (a.fields !== null && a.fields.length > 0 && v.topicState !== 'near-duplicate') this.store.putExtracted(row.id, row.url, capture, a.fields);
  }

  private count(state: TopicState, by: number): void {
    if (state === 'relevant') this.tally.relevantPages += by;
    else if (state === 'off-topic') this.tally.offTopicPages += by;
    else this.tally.nearDuplicates += by;
  }

  /**
   * The seeds this run admits. Without crawl probability, all. With it, the first run draws every
   * seed with P = 1 − (s + f)/(2n); the seeds it skips are drawn again in the next run, with f
   * counting the seeds ranked before them that were crawled and reached no relevant page.
   */
  seedsToAdmit(catalogue: Catalogue, ranked: readonly string[]): string[] {
    const cp = this.template.crawlProbability;
    if (!cp.enabled) return [...ranked];
    const saved = catalogue.getMeta(DEFERRED_SEEDS);
    const deferred = saved === null ? null : new Set(JSON.parse(saved) as string[]);
    const runs = Number(catalogue.getMeta(SEED_RUNS) ?? '0');
    const productive = this.store.productiveSeeds();
    const unproductive = new Set(ranked.filter((s) => deferred !== null && !deferred.has(s) && !productive.has(s)));
    const decisions = sampleSeeds(ranked, unproductive, cp.randomSeed + runs);
    const candidates = decisions.filter((d) => deferred === null || deferred.has(d.seed));
    catalogue.setMeta(DEFERRED_SEEDS, JSON.stringify(candidates.filter((d) => !d.crawl).map((d) => d.seed)));
    catalogue.setMeta(SEED_RUNS, String(runs + 1));
    return candidates.filter((d) => d.crawl).map((d) => d.seed);
  }
}
