import { useCallback, useEffect, useState } from 'react';
import { qaScore, type QaResultsPage, type QaRunStatus } from '../../../shared/qa.js';
import { api } from '../../api/index.js';
import { formatCount, formatEta, plural } from '../../lib/format.js';
import { command } from '../../stores/command.js';
import { Histogram } from './Histogram.js';
import { PageDetail } from './PageDetail.js';
import { PatchReport } from './PatchReport.js';
import { pct } from './score.js';
import { TableHead } from '../Table/TableHead.js';

/** Result rows fetched at a time. */
const PAGE_SIZE = 50;

/**
 * The page analysis of an archive (`harvest qa` in the app): Analyse, with progress, pause and
 * resume; then the pages worst first, the histogram of their scores, and one page's detail.
 */
export function PageAnalysis({ jobId }: { jobId: string }) {
  const [status, setStatus] = useState<QaRunStatus | null>(null);
  const [results, setResults] = useState<QaResultsPage | null>(null);
  const [shown, setShown] = useState(PAGE_SIZE);
  const [selected, setSelected] = useState<string | null>(null);
  /** The capture whose analysis is shown; null: the newest. */
  const [capture, setCapture] = useState<number | null>(null);
  const [serial, setSerial] = useState(0);
  const refresh = useCallback(() => setSerial((n) => n + 1), []);

  useEffect(() => {
    setStatus(null);
    setSelected(null);
    setCapture(null);
    setShown(PAGE_SIZE);
    // Quietly: a host without the analysis (or an archive it cannot read now) just shows no run.
    void api()
      ['qa.status']({ id: jobId })
      .then((r) => r.ok && r.value && setStatus((now) => now ?? r.value));
    return api().onEvent((e) => {
      if (e.type !== 'qa' || e.qa.jobId !== jobId) return;
      setStatus(e.qa);
      refresh();
    });
  }, [jobId, refresh]);

  useEffect(() => {
    let live = true;
    void api()
      ['qa.results']({ id: jobId, offset: 0, limit: shown, ...(capture !== null && { capture }) })
      .then((r) => {
        // An archive held by its crawl answers later; what was shown stays until then.
        if (live && r.ok) setResults(r.value);
      });
    return () => {
      live = false;
    };
  }, [jobId, shown, serial, capture]);

  const running = status?.state === 'running';
  const start = (fresh: boolean) => void command('qa.start', { id: jobId, fresh }).then((r) => r.ok && setStatus(r.value));
  const pause = () => void command('qa.pause', { id: jobId });
  const patch = () => void command('qa.patch', { id: jobId }).then((r) => r.ok && setStatus(r.value));
  // Earlier captures are shown, not analysed here: Analyse and Patch act on the newest.
  const newest = capture === null || capture === results?.captures[0];
  const analysed = results?.total ?? 0;
  const remaining = results === null ? 0 : Math.max(0, results.pages - analysed);

  return (
    <section className="report-section qa-analysis" aria-labelledby="qa-title" data-testid="qa-analysis">
      <h2 id="qa-title" className="qa-title">
        Page analysis
      </h2>
      <p className="muted small">
        Each archived page is rendered as the crawl rendered it (a rendered crawl) or live, and from the offline copy and the WACZ replay
        in the same browser, and they are compared: visible text, the first screenful, and the resources a copy could not load. The same as{' '}
        <code>harvest qa &lt;archive-dir&gt;</code>.
      </p>
      {results && results.captures.length > 1 && (
        <label className="qa-capture">
          Capture{' '}
          <select
            value={capture ?? results.captures[0]}
            onChange={(e) => {
              setSelected(null);
              setShown(PAGE_SIZE);
              setCapture(Number(e.target.value));
            }}
            data-testid="qa-capture"
          >
            {results.captures.map((c) => (
              <option key={c} value={c}>
                {c === results.captures[0] ? `${c} (newest analysed)` : c}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="row qa-actions" hidden={!newest}>
        {running ? (
          <button className="primary" onClick={pause} data-testid="qa-pause">
            Pause analysis
          </button>
        ) : (
          (remaining > 0 || analysed === 0) && (
            <button className="primary" onClick={() => start(false)} data-testid="qa-start">
              {status?.state === 'paused' ? 'Resume analysis' : analysed > 0 ? `Analyse the ${plural(remaining, 'page')} left` : 'Analyse pages'}
            </button>
          )
        )}
        {!running && analysed > 0 && (
          <button className={remaining === 0 ? 'primary' : undefined} onClick={() => start(true)} data-testid="qa-start-fresh">
            Analyse all again
          </button>
        )}
        {!running && (results?.withMissing ?? 0) > 0 && (
          <button onClick={patch} data-testid="qa-patch">
            Patch missing resources
          </button>
        )}
        <RunLine status={status} />
      </div>
      {status?.patch?.phase === 'done' && <PatchReport report={status.patch.report} />}
      {results && results.total > 0 && (
        <>
          <p data-testid="qa-summary">
            {formatCount(results.total)} of {plural(results.pages, 'page')} analysed in capture {results.capture}: {formatCount(results.errors)} could not be compared,{' '}
            {formatCount(results.withMissing)} with missing resources.
          </p>
          <div className="qa-layout">
            <div className="qa-list">
              <Histogram bins={results.histogram} />
              <Results results={results} selected={selected} onSelect={setSelected} />
              {results.rows.length < results.total && (
                <button onClick={() => setShown((n) => n + PAGE_SIZE)} data-testid="qa-more">
                  Show {formatCount(Math.min(PAGE_SIZE, results.total - results.rows.length))} more
                </button>
              )}
            </div>
            {selected !== null && <PageDetail jobId={jobId} url={selected} capture={capture} onClose={() => setSelected(null)} />}
          </div>
        </>
      )}
      {results && results.total === 0 && !running && (
        <p className="muted" data-testid="qa-none">
          Not analysed yet.
        </p>
      )}
    </section>
  );
}

function RunLine({ status }: { status: QaRunStatus | null }) {
  if (status === null) return null;
  const percent = status.total > 0 ? Math.floor((status.done / status.total) * 100) : 0;
  if (status.state === 'running' && status.patch?.phase === 'fetching') {
    return (
      <span role="status" className="muted" data-testid="qa-run-state" data-state="fetching">
        Fetching the missing resources: the job runs to fetch them, by its own rules.
      </span>
    );
  }
  if (status.state === 'running') {
    return (
      <div className="qa-progress" data-testid="qa-progress">
        <div
          className="progress-bar"
          role="progressbar"
          aria-label="Pages analysed"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${formatCount(status.done)} of ${formatCount(status.total)} pages`}
        >
          <div className="progress-fill" style={{ width: `${percent}%` }} />
        </div>
        <span data-testid="qa-progress-text">
          {formatCount(status.done)} of {plural(status.total, 'page')} analysed{status.patch ? ' again' : ''}
          {status.kept > 0 && ` (${formatCount(status.kept)} kept from an earlier run)`}, {formatEta(status.etaMs)}
        </span>
      </div>
    );
  }
  const text =
    status.state === 'paused' && status.patch
      ? 'Patch paused: resume the job to fetch the rest, then patch again to analyse its pages.'
      : status.state === 'paused'
      ? `Paused after ${plural(status.done, 'page')}; what was analysed is kept.`
      : status.state === 'failed'
        ? `The analysis stopped: ${status.error ?? 'unknown error'}`
        : status.patch
          ? `Patched: ${plural(status.done, 'page')} analysed again.`
          : `Done: ${plural(status.done, 'page')} analysed now${status.kept > 0 ? `, ${formatCount(status.kept)} from an earlier run` : ''}.`;
  return (
    <span role="status" className={status.state === 'failed' ? 'qa-error' : 'muted'} data-testid="qa-run-state" data-state={status.state}>
      {text}
    </span>
  );
}

function Results({ results, selected, onSelect }: { results: QaResultsPage; selected: string | null; onSelect(url: string): void }) {
  return (
    <table className="report-table qa-results" data-testid="qa-results">
      <caption className="sr-only">Analysed pages, worst first</caption>
      <TableHead columns={[{ label: 'Score', num: true }, { label: 'Text', num: true }, { label: 'Screenshot', num: true }, { label: 'Missing', num: true }, { label: 'Page' }]} />
      <tbody>
        {results.rows.map((r) => (
          <tr key={r.url} className={selected === r.url ? 'selected' : undefined} data-testid="qa-row" data-url={r.url}>
            <td className="num" data-testid="qa-row-score">
              {pct(qaScore(r))}
            </td>
            <td className="num">{pct(r.textMatch)}</td>
            <td className="num">{pct(r.screenshotMatch)}</td>
            <td className="num">{r.error ? 'not compared' : formatCount(r.missing.length)}</td>
            <td>
              <button className="link qa-row-open" onClick={() => onSelect(r.url)} aria-current={selected === r.url ? 'true' : undefined} data-testid="qa-row-open">
                {r.url}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
