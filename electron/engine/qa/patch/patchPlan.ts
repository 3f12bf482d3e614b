import type { QaPageResult } from '../../../../shared/qa.js';
import { Frontier } from '../../crawl/frontier.js';
import { ProgressMeter } from '../../crawl/progress.js';
import { REQUISITES } from '../../render/requestKinds.js';
import type { Archive } from '../../store/archive.js';
import { QaStore } from '../qaStore.js';

/** A resource the analysis found missing, with the pages that lacked it. */
export interface PatchTarget {
  url: string;
  type: string;
  pages: string[];
  /**
   * Archived before the analysis that found it missing: the copy asks for it at an address the
   * offline copy cannot serve. (One archived since, by an interrupted patch, counts as fetched.)
   */
  archivedBefore: boolean;
}

export interface PatchPlan {
  capture: number;
  targets: PatchTarget[];
  /** The analysis's figures of every page that lacked something, before the patch. */
  before: Map<string, QaPageResult>;
}

/** Thrown when there is nothing to patch from: the capture was never analysed. */
export class PatchUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchUsageError';
  }
}

/**
 * Queues, in the archive's current capture, every resource its analysis found missing, admitted as
 * the crawl admits what a rendered page asks for (renderBroker.ts): by the job's scope and trap
 * rules, requisites from other hosts as the job allows, data only inside the scope. A URL the crawl
 * got an error for is asked again (the live page loaded it since). The run that fetches them is a
 * resume of the capture, with the crawl's politeness, robots.txt and address rules.
 */
export function queuePatch(archive: Archive): PatchPlan {
  const c = archive.catalogue;
  const capture = c.currentCapture();
  const state = c.getMeta('state');
  // A patch completes a crawl; one still under way (or paused) would be resumed whole by the patch's run.
  if (state !== 'finished') throw new PatchUsageError(`capture ${capture} is not finished (${state ?? 'never started'}): resume its crawl first`);
  const results = new QaStore(c.sqlite).results(capture);
  if (results.length === 0) throw new PatchUsageError(`capture ${capture} has no page analysis to patch from: run harvest qa first`);
  const targets = new Map<string, PatchTarget>();
  const before = new Map<string, QaPageResult>();
  for (const page of results) {
    for (const m of page.missing) {
      const t = targets.get(m.url) ?? { url: m.url, type: m.type, pages: [], archivedBefore: false };
      t.pages.push(page.url);
      targets.set(m.url, t);
      before.set(page.url, page);
    }
  }
  const fetchedAt = c.sqlite.prepare('SELECT fetched_at AS at FROM urls WHERE id = ?');
  const frontier = new Frontier(archive.job, c, new ProgressMeter(c.countByState(), c.countBySkipReason(), c.totalBytes()), () => {});
  c.transaction(() => {
    for (const t of targets.values()) {
      const page = c.lookup(t.pages[0]!);
      if (page === undefined) continue;
      const known = c.lookup(t.url);
      if (known !== undefined && known.capture === capture && (known.state === 'archived' || known.state === 'redirect')) {
        const at = (fetchedAt.get(known.id) as { at: string | null } | undefined)?.at ?? null;
        t.archivedBefore = at === null || t.pages.every((p) => at < before.get(p)!.analysedAt);
        continue;
      }
      const requisite = REQUISITES[t.type];
      const row = frontier.admit({
        url: t.url,
        parentId: page.id,
        parentDepth: page.depth,
        sameDepth: false,
        via: requisite?.via ?? t.type,
        requisite: requisite !== undefined || frontier.scope.inScope(t.url),
        parentInScope: frontier.scope.inScope(page.url),
        typeHint: requisite?.typeHint ?? null,
        redirectHops: 0,
      });
      if (row.capture === capture && (row.state === 'http-error' || row.state === 'failed')) {
        c.requeue(row, row.depth, row.requisite === 1);
        c.setAttempts(row.id, 0);
      }
    }
  });
  return { capture, targets: [...targets.values()], before };
}
