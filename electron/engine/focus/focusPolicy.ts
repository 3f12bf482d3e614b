import type { Template } from '../../../shared/template.js';
import type { Catalogue, QueuedRow } from '../store/catalogue.js';
import { harvestRateOf, type FocusCounts, type FocusStore, type TopicState } from '../store/focusStore.js';
import { sampleSeeds } from './crawlProbability.js';
import { DuplicateMemory } from './duplicateMemory.js';
import { FocusJudge, type LinkPlan, type PageVerdict } from './focusJudge.js';
import type { FocusRequest, PageAnalysis } from './pageAnalysisTypes.js';

/**
 * A local focused harvest's decisions in the crawl loop (FocusJudge's, see there) with the pages
 * judged so far kept in the catalogue's focus tables, and its counts.
 */

const DEFERRED_SEEDS = 'focus_deferred_seeds';
const SEED_RUNS = 'focus_seed_runs';

export type { LinkPlan, PageVerdict };

export class FocusPolicy {
  private readonly rules: FocusJudge;
  private readonly memory: DuplicateMemory;
  private readonly tally: Omit<FocusCounts, 'harvestRate'>;

  constructor(
    private readonly template: Template,
    private readonly store: FocusStore,
  ) {
    this.rules = new FocusJudge(template);
    this.memory = new DuplicateMemory(template.nearDuplicate.maxHamming);
    for (const p of store.originals()) this.memory.add(BigInt(`0x${p.simhash}`), p.digest, p.urlId);
    for (const id of store.distinct()) this.memory.keepApart(id);
    const { harvestRate: _, ...tally } = store.counts();
    this.tally = tally;
  }

  get seedScore(): number {
    return this.rules.seedScore;
  }

  counts(): FocusCounts {
    return { ...this.tally, harvestRate: harvestRateOf(this.tally) };
  }

  levelOf(row: Pick<QueuedRow, 'score'>): number {
    return this.rules.levelOf(row.score);
  }

  /** `extract` false: the page is as its previous capture had it, whose extracted rows stand. */
  request(row: QueuedRow, extract = true): FocusRequest {
    return this.rules.request(row.score, extract);
  }

  /** Judges a page and, unless it repeats one, remembers it for the pages after it. */
  judge(row: QueuedRow, a: PageAnalysis): PageVerdict {
    return this.rules.judge(row.id, row.score, a, this.memory);
  }

  /** The queue score of link `i` of a judged page, or that it is pruned. */
  link(v: PageVerdict, a: PageAnalysis, i: number): LinkPlan {
    return this.rules.link(v, a, i);
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
    // A near-duplicate's rows too: they point at its original (FocusStore.iterateRecords).
    if (a.fields !== null && a.fields.length > 0) this.store.putExtracted(row.id, row.url, capture, a.fields);
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
