import { useState } from 'react';
import type { JobStatus } from '../../../shared/appViews.js';
import { runActionsFor, useJobs } from '../../stores/jobs.js';
import { Confirm } from '../Confirm/index.js';

/** Start / pause / resume for one job, each shown only when its status allows. Cancel lives apart (CancelRun). */
export function RunControls({ id, status }: { id: string; status: JobStatus }) {
  const actions = runActionsFor(status);
  const { start, pause, resume, recrawl } = useJobs.getState();
  return (
    <div className="run-controls" role="group" aria-label="Run control">
      {actions.start && (
        <button className="primary" onClick={() => void start(id)} data-testid="job-start">
          Start
        </button>
      )}
      {(actions.pause || status === 'pausing') && (
        <button onClick={() => void pause(id)} disabled={!actions.pause} data-testid="job-pause">
          {status === 'pausing' ? 'Pausing…' : 'Pause'}
        </button>
      )}
      {actions.resume && (
        <button className="primary" onClick={() => void resume(id)} data-testid="job-resume">
          {actions.crashed ? 'Resume (crashed run)' : 'Resume'}
        </button>
      )}
      {actions.again && (
        <button onClick={() => void recrawl(id)} title="A new capture with the same settings; what changed since this one is reported" data-testid="job-run-again">
          Run again now
        </button>
      )}
    </div>
  );
}

/**
 * Cancel ends a job for good (it can't be resumed), so it asks first and sits away from Pause,
 * where a slip of the mouse can't reach it.
 */
export function CancelRun({ id, name, status }: { id: string; name: string; status: JobStatus }) {
  const [asking, setAsking] = useState(false);
  if (!runActionsFor(status).cancel) return null;
  return (
    <>
      <button className="danger" onClick={() => setAsking(true)} data-testid="job-cancel" title="Stop this job for good">
        Cancel job…
      </button>
      {asking && (
        <Confirm
          title={`Cancel “${name}”?`}
          confirmLabel="Cancel job"
          cancelLabel="Keep it"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void useJobs.getState().cancel(id);
          }}
          testId="job-cancel-confirm"
        >
          <p>
            The crawl stops for good and cannot be resumed; everything archived so far is kept and can be browsed and exported. To stop for now and carry on
            later, use Pause instead.
          </p>
        </Confirm>
      )}
    </>
  );
}
