import type pg from 'pg';
import type { Template } from '../../../shared/template.js';
import { DuplicateMemory } from '../focus/duplicateMemory.js';
import { FocusJudge, type PageVerdict } from '../focus/focusJudge.js';
import type { PageAnalysis } from '../focus/pageAnalysisTypes.js';
import { lockFocus, originalsSince, putFocusPages, type FocusPageWrite } from './focusPages.js';

/** A page a worker judged in its batch, with what the commit needs to judge it again. */
export interface JudgedPage {
  urlId: number;
  score: number | null;
  analysis: PageAnalysis;
  /** The verdict its links are planned by now. */
  verdict: PageVerdict;
  /** When it was fetched (its WARC record's date): the capture its extracted fields are filed under. */
  capture: string;
  /** Plans the page's links again by another verdict (its discoveries in the batch are replaced). */
  replan(v: PageVerdict): void;
}

/** The pages of one batch, judged against the harvest's pages as the worker last read them plus the batch's own. */
export interface BatchFocus {
  memory: DuplicateMemory;
  pages: JudgedPage[];
}

/**
 * A focused cluster harvest in one worker. The local crawl judges pages one after another against
 * every page before them; workers judge at the same time, so a page is judged twice:
 *
 * - in the batch, for planning its links at once: against the originals committed by any worker up
 *   to the worker's last read (before each batch, and at each commit) plus the batch's own pages;
 * - at the batch's commit, for good: under a transaction-level advisory lock (so commits with pages
 *   go one at a time), after reading what other commits added since, the batch's pages are judged
 *   again in the order they were fetched. A page another worker committed meanwhile can make one a
 *   near-duplicate after all; its links are then planned again (the finishing pass points the
 *   mirror's references at what was finally fetched).
 *
 * So no two stored originals are near-duplicates of each other, even when two workers fetched them
 * at the same moment, and the lock is held only while a batch commits (milliseconds against a batch
 * of seconds). Every worker keeps the committed originals in memory, read incrementally by commit
 * order (focusPages.ts), as the local crawl keeps its own.
 */
export class ClusterFocus {
  readonly judge: FocusJudge;
  private readonly committed: DuplicateMemory;
  private seenSeq = 0;

  constructor(template: Template) {
    this.judge = new FocusJudge(template);
    this.committed = new DuplicateMemory(template.nearDuplicate.maxHamming);
  }

  /** Reads the originals committed since the last read. */
  async sync(db: pg.Pool | pg.PoolClient): Promise<void> {
    const rows = await originalsSince(db, this.seenSeq);
    // Two reads may overlap (a batch starting while another commits): each row is taken once.
    for (const r of rows) {
      if (r.seq <= this.seenSeq) continue;
      this.committed.add(BigInt(`0x${r.simhash}`), r.digest, r.urlId);
      this.seenSeq = r.seq;
    }
  }

  batch(): BatchFocus {
    return { memory: new DuplicateMemory(this.committed.maxHamming, this.committed), pages: [] };
  }

  /**
   * The batch's final verdicts, in its commit transaction: takes the lock, reads the commits since,
   * judges the pages again, plans again the links of those whose verdict changed, and writes them.
   * Run again whole if the transaction is retried: it starts from the committed pages each time.
   */
  async commit(c: pg.PoolClient, b: BatchFocus): Promise<void> {
    if (b.pages.length === 0) return;
    await lockFocus(c);
    await this.sync(c);
    const memory = new DuplicateMemory(this.committed.maxHamming, this.committed);
    const writes: FocusPageWrite[] = [];
    for (const p of b.pages) {
      const v = this.judge.judge(p.urlId, p.score, p.analysis, memory);
      if (v.topicState !== p.verdict.topicState || v.duplicateOf !== p.verdict.duplicateOf || v.continues !== p.verdict.continues) {
        p.replan(v);
        p.verdict = v;
      }
      const a = p.analysis;
      writes.push({
        urlId: p.urlId,
        relevance: v.relevance,
        topicState: v.topicState,
        duplicateOf: v.duplicateOf,
        simhash: a.simhash,
        digest: a.digest,
        capture: p.capture,
        fields: a.fields ?? [],
      });
    }
    await putFocusPages(c, writes);
  }
}
