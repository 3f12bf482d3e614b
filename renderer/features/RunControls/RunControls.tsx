import type { JobStatus } from '../../../shared/contract.js';
import { runActionsFor, useJobs } from '../../stores/jobs.js';

/** Start / pause / resume / cancel for one job, each enabled only when its status allows. */
export function RunControls({ id, status }: { id: string; status: JobStatus }) {
  const actions = runActionsFor(status);
  const { start, pause, resume, cancel } = useJobs.getState();
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
      {actions.cancel && (
        <button onClick={() => void cancel(id)} data-testid="job-cancel">
          Cancel
        </button>
      )}
    </div>
  );
}
