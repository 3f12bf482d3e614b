import { useShallow } from 'zustand/react/shallow';
import type { CrawlCounts, SkipReason, UrlState } from '../../../shared/crawl.js';
import { formatBytes, formatCount, formatDuration, formatRate } from '../../lib/format.js';
import { selectJob, useJobs } from '../../stores/jobs.js';
import { useNav } from '../../stores/nav.js';
import { selectProgress, useProgress } from '../../stores/progress.js';
import { Sparkline } from '../Sparkline/index.js';

const SKIP_LABELS: Record<SkipReason, string> = {
  scope: 'Out of scope',
  robots: 'robots.txt',
  'trap:url-length': 'Trap: URL too long',
  'trap:path-slashes': 'Trap: too many slashes',
  'trap:segment-repeats': 'Trap: repeated segment',
  'trap:query-params': 'Trap: too many parameters',
  'trap:query-variants': 'Trap: too many query variants',
  'limit:depth': 'Limit: depth',
  'limit:pages': 'Limit: pages',
  'limit:bytes': 'Limit: size',
  'limit:duration': 'Limit: duration',
};

/** Live numbers of one job: the latest progress event while it runs, else the job's stored counts. */
export function Progress({ id }: { id: string }) {
  const job = useJobs(selectJob(id));
  const progress = useProgress(selectProgress(id));
  const history = useProgress(useShallow((s) => (s.byJob[id]?.history ?? []).map((p) => p.urlsPerSec)));
  const kbHistory = useProgress(useShallow((s) => (s.byJob[id]?.history ?? []).map((p) => p.kbPerSec)));
  const drill = useNav((s) => s.drill);
  if (!job) return null;
  const live = job.status === 'running' || job.status === 'pausing';
  const counts: CrawlCounts | null = (live ? progress?.latest.counts : null) ?? job.counts ?? progress?.latest.counts ?? null;
  if (!counts) {
    return (
      <section className="progress empty" data-testid="progress">
        <p className="empty-state">Not started yet. Press Start (or s) to harvest; numbers appear here as it runs.</p>
      </section>
    );
  }
  const fetched = counts.archived + counts.redirects + counts.httpErrors + counts.failed;
  const pending = counts.queued + counts.inFlight;
  const fraction = fetched + pending > 0 ? fetched / (fetched + pending) : 0;
  const elapsedMs = live && progress ? progress.latest.elapsedMs : job.durationMs;
  const finishing = live ? (progress?.latest.finishing ?? null) : null;
  const reasons = Object.entries(counts.skippedByReason).filter(([, n]) => (n ?? 0) > 0) as [SkipReason, number][];
  const drillTo = (filter: { state?: UrlState; skipReason?: SkipReason }) => () => drill(id, filter);
  return (
    <section className="progress" data-testid="progress" aria-label="Progress">
      <div
        className="progress-bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fraction * 100)}
        data-testid="progress-bar"
      >
        <div className="progress-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      {finishing && (
        <p className="finishing" data-testid="progress-finishing">
          Every URL has an outcome. Checking saved pages for links to redo:{' '}
          {formatCount(finishing.done)} of {formatCount(finishing.total)} URLs (
          {finishing.total > 0 ? Math.floor((finishing.done / finishing.total) * 100) : 100}%)
        </p>
      )}
      <dl className="stats">
        <Stat label="Fetched" value={formatCount(fetched)} testId="stat-fetched" />
        <Stat label="Queued" value={formatCount(pending)} testId="stat-queued" />
        <Stat label="Archived" value={formatCount(counts.archived)} testId="stat-archived" onClick={drillTo({ state: 'archived' })} />
        <Stat label="HTTP errors" value={formatCount(counts.httpErrors)} testId="stat-http-errors" onClick={drillTo({ state: 'http-error' })} />
        <Stat label="Failed" value={formatCount(counts.failed)} testId="stat-failed" onClick={drillTo({ state: 'failed' })} />
        <Stat label="Bytes" value={formatBytes(counts.bytes)} testId="stat-bytes" />
        <Stat label="Elapsed" value={formatDuration(elapsedMs)} testId="stat-elapsed" />
        <div className="stat rate">
          <dt>URLs/s</dt>
          <dd data-testid="stat-urls-per-sec">{live && progress ? formatRate(progress.latest.urlsPerSec) : '—'}</dd>
          <Sparkline values={history} label="URLs per second, recent" testId="sparkline-urls" />
        </div>
        <div className="stat rate">
          <dt>KB/s</dt>
          <dd data-testid="stat-kb-per-sec">{live && progress ? formatRate(progress.latest.kbPerSec) : '—'}</dd>
          <Sparkline values={kbHistory} label="Kilobytes per second, recent" testId="sparkline-kb" />
        </div>
      </dl>
      <div className="skips">
        <h3>
          Skipped{' '}
          <button className="link" onClick={drillTo({ state: 'skipped' })} data-testid="stat-skipped">
            {formatCount(counts.skipped)}
          </button>
        </h3>
        {reasons.length === 0 ? (
          <p className="muted">Nothing skipped.</p>
        ) : (
          <ul>
            {reasons.map(([reason, n]) => (
              <li key={reason}>
                <button className="link" onClick={drillTo({ state: 'skipped', skipReason: reason })} data-testid={`skip-${reason}`}>
                  {SKIP_LABELS[reason]}: {formatCount(n)}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function Stat({ label, value, testId, onClick }: { label: string; value: string; testId: string; onClick?: () => void }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {onClick ? (
          <button className="link" onClick={onClick} title={`Show ${label.toLowerCase()} URLs`}>
            {value}
          </button>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
