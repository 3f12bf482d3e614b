import { HARVEST_VERSION } from '../../../shared/job.js';
import type { Archive } from '../store/archive.js';
import { requireCapture } from './captureWarcs.js';

/** How an archive came to be: what every export records beside the descriptive metadata. */
export interface Provenance {
  name: string;
  seeds: string[];
  /** e.g. "host; include ^https://a/; exclude \.pdf$" */
  scope: string;
  /** Of the captures exported: the first one's start and the last one's end. */
  crawlStart: string | null;
  crawlEnd: string | null;
  /** Which captures the export holds, e.g. "capture 2 of 3" or "all 3 captures". */
  captures: string;
  /** The Harvest version that made the archive, and the one exporting it. */
  crawlTool: string;
  exportTool: string;
  robotsPolicy: 'obeyed' | 'ignored';
  state: string;
}

/** The archive's provenance, for an export of every capture or of `capture` alone. */
export function readProvenance(archive: Archive, capture?: number): Provenance {
  const c = archive.catalogue;
  const all = c.listCaptures();
  const chosen = capture === undefined ? null : requireCapture(all, capture);
  const { scope } = archive.job;
  const scopeText = [
    scope.mode,
    ...scope.include.map((r) => `include ${r}`),
    ...scope.exclude.map((r) => `exclude ${r}`),
  ].join('; ');
  return {
    name: archive.job.name,
    seeds: archive.job.seeds,
    scope: scopeText,
    crawlStart: (chosen ?? all[0])?.startedAt ?? c.getMeta('started_at'),
    crawlEnd: chosen ? chosen.finishedAt : all.length > 0 ? all.at(-1)!.finishedAt : c.getMeta('finished_at'),
    captures: chosen ? `capture ${chosen.id} of ${all.length}` : all.length > 1 ? `all ${all.length} captures` : 'capture 1',
    crawlTool: `Harvest ${c.getMeta('tool_version') ?? 'unknown version'}`,
    exportTool: `Harvest ${HARVEST_VERSION}`,
    robotsPolicy: c.getMeta('robots_policy') === 'ignored' ? 'ignored' : 'obeyed',
    state: c.getMeta('state') ?? 'paused',
  };
}
