import type { AppInfo, JobStatus, JobSummary } from '../../../shared/appViews.js';
import type { CrawlCounts, ProgressEvent } from '../../../shared/crawl.js';
import { parseJob } from '../../../shared/job.js';
import { useApp } from '../../../renderer/stores/app.js';
import { useArchives } from '../../../renderer/stores/archives.js';
import { useCaptures } from '../../../renderer/stores/captures.js';
import { useClusters } from '../../../renderer/stores/clusters.js';
import { useExports } from '../../../renderer/stores/exports.js';
import { useImports } from '../../../renderer/stores/imports.js';
import { useJobs } from '../../../renderer/stores/jobs.js';
import { useNav } from '../../../renderer/stores/nav.js';
import { useProgress } from '../../../renderer/stores/progress.js';
import { useToasts } from '../../../renderer/stores/toasts.js';
import { useUrls } from '../../../renderer/stores/urls.js';

const { seeds: _seeds, ...defaults } = parseJob({ seeds: ['http://example.test/'] });

export const appInfo = (host: AppInfo['host'] = 'web'): AppInfo => ({
  version: '0.1.0',
  dataDir: '/data/harvest',
  defaults,
  host,
  viewerBase: 'http://127.0.0.1:4001/v/',
});

export function jobSummary(id: string, status: JobStatus = 'new', counts: CrawlCounts | null = null, revision = 0): JobSummary {
  return {
    id,
    job: parseJob({ name: `Job ${id}`, seeds: [`http://site-${id}.test/`] }),
    archiveDir: `/data/harvest/archives/${id}`,
    status,
    error: null,
    createdAt: `2026-01-0${id.length}T00:00:00.000Z`,
    updatedAt: '2026-01-01T00:00:00.000Z',
    revision,
    counts,
    durationMs: 0,
  };
}

export function counts(over: Partial<CrawlCounts> = {}): CrawlCounts {
  return { discovered: 0, queued: 0, inFlight: 0, archived: 0, redirects: 0, httpErrors: 0, failed: 0, skipped: 0, skippedByReason: {}, bytes: 0, ...over };
}

export function progressEvent(over: Partial<ProgressEvent> = {}): ProgressEvent {
  return { type: 'progress', counts: counts(), urlsPerSec: 0, kbPerSec: 0, elapsedMs: 0, current: [], ...over };
}

const initial = [useApp, useArchives, useCaptures, useClusters, useExports, useImports, useJobs, useNav, useProgress, useToasts, useUrls].map((store) => [store, store.getState()] as const);

/** Puts every store back as it was when the app loaded. */
export function resetStores(): void {
  for (const [store, state] of initial) (store.setState as (s: unknown, replace: true) => void)(state, true);
}
