import type { QaPageResult, QaPatchedPage, QaPatchedResource } from '../../../../shared/qa.js';
import type { Archive } from '../../store/archive.js';
import type { PatchPlan, PatchTarget } from './patchPlan.js';

interface StateRow {
  state: string;
  http_status: number | null;
  skip_reason: string | null;
  error: string | null;
}

/** What became of each resource the patch went for, read from the catalogue once its run ended. */
export function patchedResources(archive: Archive, plan: PatchPlan): QaPatchedResource[] {
  const stateOf = archive.catalogue.sqlite.prepare('SELECT state, http_status, skip_reason, error FROM urls WHERE url = ?');
  return plan.targets.map((t) => ({ url: t.url, type: t.type, pages: t.pages.length, ...outcomeOf(t, stateOf.get(t.url) as StateRow | undefined) }));
}

function outcomeOf(t: PatchTarget, row: StateRow | undefined): Pick<QaPatchedResource, 'outcome' | 'detail'> {
  if (t.archivedBefore) return { outcome: 'archived-before', detail: 'archived by the crawl; the copy asks for it at an address the offline copy cannot serve' };
  if (row === undefined) return { outcome: 'skipped', detail: 'its page is no longer in the catalogue' };
  switch (row.state) {
    case 'archived':
    case 'redirect':
      return { outcome: 'fetched', detail: null };
    case 'queued':
      return { outcome: 'queued', detail: 'the run stopped before it' };
    case 'skipped':
      return { outcome: 'skipped', detail: [row.skip_reason, row.error].filter(Boolean).join(': ') || null };
    default:
      return { outcome: 'failed', detail: row.http_status !== null ? `HTTP ${row.http_status}` : row.error };
  }
}

/** The pages that lacked a resource fetched now: the ones worth analysing again. */
export function pagesToRescore(plan: PatchPlan, resources: QaPatchedResource[]): string[] {
  const fetched = new Set(resources.filter((r) => r.outcome === 'fetched').map((r) => r.url));
  const pages = new Set<string>();
  for (const t of plan.targets) if (fetched.has(t.url)) for (const p of t.pages) pages.add(p);
  return [...pages];
}

const figures = (r: QaPageResult | null | undefined): QaPatchedPage['before'] => ({
  textMatch: r?.textMatch ?? null,
  screenshotMatch: r?.screenshotMatch ?? null,
  missing: r?.missing.length ?? 0,
});

/** Each page analysed again, its figures before the patch beside those after. */
export function beforeAfter(plan: PatchPlan, pages: string[], after: (url: string) => QaPageResult | null): QaPatchedPage[] {
  return pages.map((url) => ({ url, before: figures(plan.before.get(url)), after: figures(after(url)) }));
}
