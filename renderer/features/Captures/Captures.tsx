import { useEffect, useState } from 'react';
import type { CaptureSummary } from '../../../shared/captures.js';
import { formatBytes, formatCount, formatDate, formatDuration } from '../../lib/format.js';
import { useCaptures } from '../../stores/captures.js';
import { runActionsFor, selectJob, useJobs } from '../../stores/jobs.js';
import { ChangeReport } from './ChangeReport.js';
import { TableHead } from '../Table/TableHead.js';

/** An archive's captures, newest first: when, what changed, what each added; each opens its change report. */
export function Captures({ jobId }: { jobId: string }) {
  const list = useCaptures((s) => s.byJob[jobId]);
  const job = useJobs(selectJob(jobId));
  const [open, setOpen] = useState<CaptureSummary | null>(null);
  const status = job?.status;
  // Loaded when shown, and again whenever the job's status changes (a capture began or ended).
  useEffect(() => {
    void useCaptures.getState().load(jobId);
  }, [jobId, status]);
  if (!list) return <p className="muted">Loading captures…</p>;
  const lastId = list.at(-1)?.id;
  // The catalogue records a capture's state when its run stops; while it runs, the job says.
  const stateOf = (c: CaptureSummary) => (c.id === lastId && (status === 'running' || status === 'pausing') ? status : c.state);
  return (
    <div className="captures" data-testid="captures">
      <div className="captures-head">
        <h2>
          {list.length === 1 ? '1 capture' : `${list.length} captures`}
          {job?.schedule && <span className="muted small"> · next run {formatDate(job.schedule.nextRunAt)}</span>}
        </h2>
        {status && runActionsFor(status).again && (
          <button onClick={() => void useJobs.getState().recrawl(jobId)} data-testid="captures-run-again">
            Run again now
          </button>
        )}
      </div>
      <table className="capture-table">
        <caption className="sr-only">Captures of this archive, with what changed in each</caption>
        <TableHead
          columns={[
            { label: 'Capture' },
            { label: 'Started' },
            { label: 'State' },
            { label: 'New', num: true },
            { label: 'Changed', num: true },
            { label: 'Markup only', num: true, title: 'Payload changed, visible text the same' },
            { label: 'Removed', num: true },
            { label: 'Added', num: true, title: 'Payload bytes of what was new or changed' },
            { label: 'Actions', hidden: true },
          ]}
        />
        <tbody>
          {[...list].reverse().map((c) => (
            <tr key={c.id} data-testid="capture-row" data-capture={c.id}>
              <td>#{c.id}</td>
              <td>
                {formatDate(c.startedAt)}
                {c.durationMs > 0 && <div className="muted small">{formatDuration(c.durationMs)}</div>}
              </td>
              <td>
                <span className={`status status-${stateOf(c)}`} data-testid="capture-state">
                  {stateOf(c)}
                </span>
              </td>
              <td className="num" data-testid="capture-new">
                {formatCount(c.counts.new)}
              </td>
              <td className="num" data-testid="capture-changed">
                {formatCount(c.counts.changed)}
              </td>
              <td className="num" data-testid="capture-markup-only">
                {formatCount(c.counts.markupOnly)}
              </td>
              <td className="num" data-testid="capture-removed">
                {formatCount(c.counts.removed)}
              </td>
              <td className="num" data-testid="capture-bytes">
                {formatBytes(c.bytesAdded)}
              </td>
              <td>
                <button onClick={() => setOpen(c)} data-testid="capture-changes">
                  {c.id === 1 ? 'What it holds' : 'What changed'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <ChangeReport jobId={jobId} capture={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
