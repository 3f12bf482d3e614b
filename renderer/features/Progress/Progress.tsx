import { useShallow } from 'zustand/react/shallow';
import type { CrawlCounts, SkipReason, UrlState } from '../../../shared/crawl.js';
import { formatByteRate, formatBytes, formatClock, formatCount, formatEta, formatPercentOfKnown, formatRate, plural, progressFigures } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';
import { selectJob, useJobs } from '../../stores/jobs.js';
import { useNav } from '../../stores/nav.js';
import { selectProgress, useProgress } from '../../stores/progress.js';
import { Sparkline } from '../Sparkline/index.js';
import { LiveControl } from '../LiveControl/index.js';
import { FocusLine } from './FocusLine.js';
import { SKIP_LABELS } from '../../lib/vocabulary.js';


/** What each figure counts, the same words as the CLI and the library (shown as tooltips). */
export const MEANING = {
  fetched: 'URLs requested that have an outcome: archived + redirects + HTTP errors + failed',
  queued: 'URLs found and waiting to be fetched, including those being fetched now',
  archived: 'Saved in the offline copy: pages, images, stylesheets, scripts and other files',
  httpErrors: 'The server answered with an error status (4xx or 5xx); nothing saved',
  failed: 'No usable answer: connection refused or reset, timeout, too large, ...',
  received: 'Bytes received, after decompression',
} as const;

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
  const elapsedMs = live && progress ? progress.latest.elapsedMs : job.durationMs;
  const urlsPerSec = live && progress ? progress.latest.urlsPerSec : 0;
  const figures = progressFigures(counts, urlsPerSec, elapsedMs);
  const finishing = live ? (progress?.latest.finishing ?? null) : null;
  const focus = progress?.latest.focus ?? null;
  const reasons = Object.entries(counts.skippedByReason).filter(([, n]) => (n ?? 0) > 0) as [SkipReason, number][];
  const drillTo = (filter: { state?: UrlState; skipReason?: SkipReason }) => () => drill(id, filter);
  return (
    <section className="progress" data-testid="progress" aria-label="Progress">
      <div
        className={job.status === 'failed' ? 'progress-bar failed' : 'progress-bar'}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={figures.percent}
        aria-valuetext={formatPercentOfKnown(figures)}
        aria-label="Crawl progress"
        data-testid="progress-bar"
      >
        <div className="progress-fill" style={{ width: `${figures.percent}%` }} />
      </div>
      {/* Screen readers hear the progress in steps of 10% and when the run ends, not at every event (WCAG 4.1.3). */}
      <p className="sr-only" role="status" data-testid="progress-announce">
        {job.status === 'finished' ? 'Crawl finished' : live ? `Crawl ${Math.floor(figures.percent / 10) * 10}% done` : ''}
      </p>
      <p className="progress-line" data-testid="progress-percent">
        <span title="Pages found while crawling add to this total, so the percentage can go down as well as up">
          {job.status === 'failed'
            ? counts.archived === 0
              ? 'Failed: nothing was harvested. The message above says why'
              : `Stopped with ${formatCount(counts.archived)} archived: ${formatPercentOfKnown(figures)}`
            : job.status !== 'finished'
            ? formatPercentOfKnown(figures)
            : figures.fetched === 0
              ? 'Finished without fetching anything: the summary below says why'
              : `Finished: each of the ${plural(figures.fetched, 'URL')} fetched has its outcome`}
        </span>
        {live && !finishing && (
          <span className="muted" data-testid="progress-eta">
            {' · '}
            {formatEta(figures.etaMs)}
            {figures.etaMs !== null && figures.remaining > 0 ? ' at the current rate, more if more URLs are found' : ''}
          </span>
        )}
      </p>
      {finishing && (
        <p className="finishing" data-testid="progress-finishing">
          Every URL has an outcome. Checking saved pages for links to redo:{' '}
          {formatCount(finishing.done)} of {formatCount(finishing.total)} URLs (
          {finishing.total > 0 ? Math.floor((finishing.done / finishing.total) * 100) : 100}%)
        </p>
      )}
      {job.status === 'running' && !finishing && <LiveControl politeness={job.job.politeness} apply={async (control) => (await commandValue('jobs.control', { id, control })) !== null} />}
      {focus && <FocusLine focus={focus} testId="progress-harvest-rate" />}
      <dl className="stats">
        <Stat label="Fetched" title={MEANING.fetched} value={formatCount(figures.fetched)} testId="stat-fetched" />
        <Stat label="Queued" title={MEANING.queued} value={formatCount(figures.remaining)} testId="stat-queued" />
        <Stat label="Archived" title={MEANING.archived} value={formatCount(counts.archived)} testId="stat-archived" onClick={drillTo({ state: 'archived' })} />
        <Stat label="HTTP errors" title={MEANING.httpErrors} value={formatCount(counts.httpErrors)} testId="stat-http-errors" onClick={drillTo({ state: 'http-error' })} />
        <Stat label="Failed" title={MEANING.failed} value={formatCount(counts.failed)} testId="stat-failed" onClick={drillTo({ state: 'failed' })} />
        <Stat label="Received" title={MEANING.received} value={formatBytes(counts.bytes)} testId="stat-bytes" />
        <Stat label="Elapsed" title="Crawl time, pauses excluded" value={formatClock(elapsedMs)} testId="stat-elapsed" />
        {live && (
          <>
        <div className="stat rate">
          <dt>URLs per second</dt>
          <dd data-testid="stat-urls-per-sec">{live && progress ? formatRate(progress.latest.urlsPerSec) : '—'}</dd>
          <dd>
            <Sparkline values={history} label="URLs per second, recent" testId="sparkline-urls" />
          </dd>
        </div>
        <div className="stat rate">
          <dt>Transfer rate</dt>
          <dd data-testid="stat-kb-per-sec">{live && progress ? formatByteRate(progress.latest.kbPerSec * 1024) : '—'}</dd>
          <dd>
            <Sparkline values={kbHistory} label="Kilobytes per second, recent" testId="sparkline-kb" />
          </dd>
        </div>
          </>
        )}
      </dl>
      <div className="skips">
        <h3>
          Skipped{' '}
          <button className="link" onClick={drillTo({ state: 'skipped' })} data-testid="stat-skipped" title="Found but not fetched: show them">
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

function Stat({ label, title, value, testId, onClick }: { label: string; title: string; value: string; testId: string; onClick?: () => void }) {
  return (
    <div className="stat" title={title}>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {onClick ? (
          <button className="link" onClick={onClick} title={`Show the ${label.toLowerCase()} URLs`}>
            {value}
          </button>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
