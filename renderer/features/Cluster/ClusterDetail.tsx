import { useState } from 'react';
import type { ClusterStatus } from '../../../shared/cluster.js';
import { formatCount, formatDate, formatRate, plural } from '../../lib/format.js';
import { clusterPhase, clusterRate, fetchedOf, useClusters } from '../../stores/clusters.js';
import { LiveControl } from '../LiveControl/index.js';
import { FocusLine } from '../Progress/FocusLine.js';
import { ActiveWorkers } from './ActiveWorkers.js';
import { WorkerTable } from './WorkerTable.js';

/** An attached cluster harvest: its progress, its workers, and pause, resume and politeness for all of them. */
export function ClusterDetail({ id }: { id: string }) {
  const view = useClusters((s) => s.byId[id]);
  const [busy, setBusy] = useState(false);
  if (!view) return null;
  const phase = clusterPhase(view);
  const s = view.status;
  const run = async (paused: boolean): Promise<void> => {
    setBusy(true);
    await useClusters.getState().control(id, { paused });
    setBusy(false);
  };
  return (
    <div className="job-detail" data-testid="cluster-detail">
      <header className="detail-header">
        <div className="detail-title">
          <h2 data-testid="cluster-name">{s?.name ?? 'Cluster harvest'}</h2>
          <div className="muted" title="The harvest's PostgreSQL database (its password is never shown)" data-testid="cluster-db">
            {view.db}
          </div>
        </div>
        <div className="detail-actions">
          <span className={`status status-${phase}`} data-testid="cluster-phase">
            {phase}
          </span>
          {s !== null && s.pending > 0 && !s.paused && (
            <button onClick={() => void run(true)} disabled={busy} title="Workers finish the batches they hold and take no new one" data-testid="cluster-pause">
              Pause
            </button>
          )}
          {s !== null && s.pending > 0 && s.paused && (
            <button className="primary" onClick={() => void run(false)} disabled={busy} title="Workers take batches again" data-testid="cluster-resume">
              Resume
            </button>
          )}
          <span className="actions-gap" aria-hidden="true" />
          <button onClick={() => void useClusters.getState().detach(id)} title="Stop watching; the harvest and its workers go on" data-testid="cluster-detach">
            Detach
          </button>
        </div>
      </header>
      {view.error !== null && (
        <p className="error-banner" role="alert" data-testid="cluster-error">
          Cannot read the harvest: {view.error}. Trying again every few seconds{s ? '; the figures below are the last ones read' : ''}.
        </p>
      )}
      {phase === 'pausing' && (
        <p className="muted" data-testid="cluster-pausing">
          Pausing: {plural(s?.counts.leased ?? 0, 'URL')} in batches the workers are finishing; no new batch is taken.
        </p>
      )}
      {phase === 'paused' && (
        <p className="muted" data-testid="cluster-paused">
          Paused: no batch in flight; the workers stay live and take no new one until Resume.
        </p>
      )}
      {s && <ClusterProgress status={s} />}
      {s && s.pending > 0 && (
        <section className="cluster-controls" aria-label="Settings for every worker">
          <LiveControl politeness={s.politeness} apply={(politeness) => useClusters.getState().control(id, { politeness })} />
          <ActiveWorkers id={id} activeWorkers={s.activeWorkers} live={s.workers.filter((w) => w.state === 'live').length} />
        </section>
      )}
      <h3>Workers</h3>
      {s && <WorkerTable workers={s.workers} />}
      <p className="muted small">Read {formatDate(view.checkedAt)}; the app reads the harvest every few seconds while attached.</p>
    </div>
  );
}

/** Overall progress: URLs fetched of those known, what is left and in flight, the rate across workers. */
function ClusterProgress({ status: s }: { status: ClusterStatus }) {
  const fetched = fetchedOf(s);
  const known = fetched + s.pending;
  const percent = known === 0 ? 0 : Math.floor((fetched / known) * 100);
  const c = s.counts;
  return (
    <section className="progress" aria-label="Progress" data-testid="cluster-progress">
      <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Harvest progress">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="progress-line">
        {s.pending === 0 ? `Finished: ${plural(fetched, 'URL')} fetched` : `${percent}% of the URLs known so far`}
        {s.limit !== null && ` (${s.limit} reached)`} ·{' '}
        <span data-testid="cluster-rate">{formatRate(clusterRate(s))}</span> URLs per second over the last 30 s
      </p>
      {s.focus && <FocusLine focus={s.focus} testId="cluster-harvest-rate" />}
      <dl className="stats">
        <Figure label="Fetched" value={fetched} testId="cluster-fetched" />
        <Figure label="Queued" value={c.queued ?? 0} testId="cluster-queued" />
        <Figure label="In batches" value={c.leased ?? 0} testId="cluster-leased" />
        <Figure label="Archived" value={c.archived ?? 0} testId="cluster-archived" />
        <Figure label="Redirects" value={c.redirect ?? 0} testId="cluster-redirects" />
        <Figure label="HTTP errors" value={c['http-error'] ?? 0} testId="cluster-http-errors" />
        <Figure label="Failed" value={c.failed ?? 0} testId="cluster-failed" />
        <Figure label="Skipped" value={c.skipped ?? 0} testId="cluster-skipped" />
      </dl>
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{formatCount(value)}</dd>
    </div>
  );
}
