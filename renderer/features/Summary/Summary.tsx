import { useEffect, useState } from 'react';
import type { JobReport } from '../../../shared/urlDetail.js';
import { formatBytes, formatCount, formatDate, formatDuration, plural } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';
import { selectJob, useJobs } from '../../stores/jobs.js';
import { useNav } from '../../stores/nav.js';
import { MEANING } from '../Progress/Progress.js';
import { TableHead } from '../Table/TableHead.js';

/** Statuses after which a run's summary is worth showing. */
const ENDED = new Set(['finished', 'cancelled', 'failed']);

/** A stopped job's summary: when it ran, what became of every URL, and why the failures failed. */
export function Summary({ id }: { id: string }) {
  const job = useJobs(selectJob(id));
  const [report, setReport] = useState<JobReport | null>(null);
  const ended = job ? ENDED.has(job.status) : false;
  useEffect(() => {
    if (!ended) return;
    let live = true;
    void commandValue('jobs.report', { id }).then((r) => live && setReport(r));
    return () => {
      live = false;
    };
  }, [id, ended, job?.revision]);
  if (!job || !ended || !report) return null;
  const { stats, pages, topFailures } = report;
  const c = stats.counts;
  const drill = (state: 'archived' | 'redirect' | 'http-error' | 'failed' | 'skipped') => () => useNav.getState().drill(id, { state });
  const rows: { label: string; n: number; state: 'archived' | 'redirect' | 'http-error' | 'failed' | 'skipped'; title: string }[] = [
    { label: 'Archived', n: c.archived, state: 'archived', title: MEANING.archived },
    { label: 'Redirects', n: c.redirects, state: 'redirect', title: 'Answered with a redirect; the target has its own row' },
    { label: 'HTTP errors', n: c.httpErrors, state: 'http-error', title: MEANING.httpErrors },
    { label: 'Failed', n: c.failed, state: 'failed', title: MEANING.failed },
    { label: 'Skipped', n: c.skipped, state: 'skipped', title: 'Found but not fetched: out of scope, robots.txt, traps, limits' },
  ];
  return (
    <section className="summary" aria-label="Summary" data-testid="job-summary">
      <h3>
        Summary{job.capture != null && ` of capture ${job.capture}`} <span className={`status status-${job.status}`}>{job.status}</span>
      </h3>
      <div className="summary-grid">
        <dl className="summary-facts">
          <dt>Started</dt>
          <dd data-testid="summary-started">{formatDate(stats.startedAt)}</dd>
          <dt>{job.status === 'finished' ? 'Finished' : 'Stopped'}</dt>
          <dd data-testid="summary-ended">{formatDate(stats.finishedAt ?? job.updatedAt)}</dd>
          <dt>Crawl time</dt>
          <dd data-testid="summary-duration" title="Pauses excluded">
            {formatDuration(stats.durationMs)}
          </dd>
          <dt>Received</dt>
          <dd data-testid="summary-bytes">{formatBytes(c.bytes)}</dd>
          <dt>Pages</dt>
          <dd data-testid="summary-pages" title="Archived HTML pages, as the library counts them">
            {plural(pages, 'page')}
          </dd>
        </dl>
        <table className="summary-outcomes">
          <caption className="sr-only">URLs by outcome</caption>
          <TableHead columns={[{ label: 'Outcome' }, { label: 'URLs', num: true }]} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.state} title={r.title}>
                <td>{r.label}</td>
                <td className="num">
                  <button className="link" onClick={drill(r.state)} data-testid={`summary-${r.state}`}>
                    {formatCount(r.n)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="summary-failures">
          <h4>Top failure reasons</h4>
          {(report.robotsProblems ?? []).map((r) => (
            <p className="error-box" key={r.site} data-testid="summary-robots">
              {r.site}: robots.txt {r.error ? `could not be fetched (${r.error})` : `answered HTTP ${r.httpStatus}`}, so the crawl kept out of the site.
            </p>
          ))}
          {topFailures.length === 0 ? (
            (report.robotsProblems ?? []).length === 0 && <p className="muted">No failures and no HTTP errors.</p>
          ) : (
            <ol data-testid="summary-failures">
              {topFailures.map((f) => (
                <li key={f.reason}>
                  <span className="failure-reason">{f.reason}</span> <span className="muted">× {formatCount(f.count)}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      </div>
    </section>
  );
}
