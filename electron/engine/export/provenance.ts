import { HARVEST_VERSION } from '../../../shared/job.js';
import type { Archive } from '../store/archive.js';

/** How an archive came to be: what every export records beside the descriptive metadata. */
export interface Provenance {
  name: string;
  seeds: string[];
  /** e.g. "host; include ^https://a/; exclude \.pdf$" */
  scope: string;
  crawlStart: string | null;
  crawlEnd: string | null;
  /** The Harvest version that made the archive, and the one exporting it. */
  crawlTool: string;
  exportTool: string;
  robotsPolicy: 'obeyed' | 'ignored';
  state: string;
}

export function readProvenance(archive: Archive): Provenance {
  const c = archive.catalogue;
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
    crawlStart: c.getMeta('started_at'),
    crawlEnd: c.getMeta('finished_at'),
    crawlTool: `Harvest ${c.getMeta('tool_version') ?? 'unknown version'}`,
    exportTool: `Harvest ${HARVEST_VERSION}`,
    robotsPolicy: c.getMeta('robots_policy') === 'ignored' ? 'ignored' : 'obeyed',
    state: c.getMeta('state') ?? 'paused',
  };
}
