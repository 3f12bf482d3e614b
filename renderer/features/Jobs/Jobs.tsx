import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatCount, formatDate, plural } from '../../lib/format.js';
import { describeSchedule } from '../../lib/scheduleText.js';
import { isEditable, isRecorded, selectJob, selectJobIds, selectTwinCount, useJobs } from '../../stores/jobs.js';
import { useClusters } from '../../stores/clusters.js';
import { useNav } from '../../stores/nav.js';
import { useProgress } from '../../stores/progress.js';
import { AttachCluster, ClusterDetail, ClusterList } from '../Cluster/index.js';
import { Confirm } from '../Confirm/index.js';
import { JobForm } from '../JobForm/index.js';
import { ListBox, ListRow } from '../ListRow/index.js';
import { Progress } from '../Progress/index.js';
import { CancelRun, RunControls } from '../RunControls/index.js';
import { Schedule } from '../Schedule/index.js';
import { ExtractedRecords } from '../ExtractedRecords/index.js';
import { FocusReportView } from '../FocusReport/index.js';
import { Summary } from '../Summary/index.js';
import { UrlLog } from '../UrlLog/index.js';

/** The jobs screen: the list on the left, the selected job (or the job form) on the right. */
export function Jobs() {
  const ids = useJobs(useShallow(selectJobIds));
  const loaded = useJobs((s) => s.loaded);
  const selectedId = useJobs((s) => s.selectedId);
  const jobForm = useNav((s) => s.jobForm);
  const openJobForm = useNav((s) => s.openJobForm);
  const clusterId = useClusters((s) => s.selectedId);
  const [attaching, setAttaching] = useState(false);
  return (
    <div className="split">
      <section className="list-pane" aria-label="Jobs list">
        <div className="pane-header">
          <h2>Jobs</h2>
          <button className="primary" onClick={() => openJobForm({ kind: 'create' })} data-testid="job-new" title="New job (n)">
            New job
          </button>
        </div>
        {attaching ? (
          <AttachCluster onDone={() => setAttaching(false)} />
        ) : (
          <button className="link attach-cluster-open" onClick={() => setAttaching(true)} title="Watch and pause a harvest run by workers on several machines" data-testid="cluster-attach-open">
            Attach to cluster harvest…
          </button>
        )}
        <ClusterList />
        {loaded && ids.length === 0 ? (
          <div className="empty-state" data-testid="jobs-empty">
            <p>No jobs yet.</p>
            <p>A job is a site to harvest: its seed URLs, how far to go and how politely. Create one with New job (or press n), then Start it.</p>
          </div>
        ) : (
          <ListBox label="Jobs" hasSelection={selectedId !== null && ids.includes(selectedId)}>
            {ids.map((id) => (
              <JobRow key={id} id={id} selected={id === selectedId} />
            ))}
          </ListBox>
        )}
      </section>
      <section className="detail-pane" aria-label="Job">
        {jobForm ? (
          <JobForm key={jobForm.kind === 'edit' ? jobForm.id : 'new'} mode={jobForm} onDone={() => openJobForm(null)} />
        ) : clusterId ? (
          <ClusterDetail id={clusterId} />
        ) : selectedId ? (
          <JobDetail id={selectedId} />
        ) : (
          <div className="empty-state">
            <p>{ids.length ? 'Select a job to see its progress and URL log.' : 'Create a job to begin.'}</p>
          </div>
        )}
      </section>
    </div>
  );
}

function JobRow({ id, selected }: { id: string; selected: boolean }) {
  const job = useJobs(selectJob(id));
  const twins = useJobs((s) => selectTwinCount(id)(s));
  // While a job runs its summary's counts lag; the live progress has the current number.
  const liveArchived = useProgress((s) => s.byJob[id]?.latest.counts.archived);
  if (!job) return null;
  const live = job.status === 'running' || job.status === 'pausing';
  const archived = (live ? liveArchived : undefined) ?? job.counts?.archived ?? 0;
  return (
    <ListRow
      selected={selected}
      onSelect={() => {
        useJobs.getState().select(id);
        useNav.getState().openJobForm(null);
      }}
      testId="job-row"
      jobId={id}
    >
      <div className="job-row-name">
        {job.job.name}
        {twins > 0 && (
          <span className="badge warn" title="Another job has the same name and seeds: tell them apart by their creation date" data-testid="job-row-twin">
            same as {plural(twins, 'other')}
          </span>
        )}
      </div>
      <div className="job-row-seed muted">{job.job.seeds[0]}</div>
      <div className="job-row-meta">
        <span className={`status status-${job.status}`} data-testid="job-status">
          {job.status}
        </span>
        <span className="muted" data-testid="job-row-archived">
          {live ? `${formatCount(archived)} archived so far` : `${plural(job.pages ?? 0, 'page')} · ${formatCount(archived)} archived`}
          {!live && job.capture != null && ` · capture ${job.capture}`}
        </span>
      </div>
      {job.schedule && (
        <div className="job-row-schedule muted" data-testid="job-row-schedule">
          {describeSchedule(job.schedule.schedule)} · next {formatDate(job.schedule.nextRunAt)}
        </div>
      )}
      <div className="job-row-created muted" data-testid="job-row-created">
        Created {formatDate(job.createdAt)}
      </div>
    </ListRow>
  );
}

function JobDetail({ id }: { id: string }) {
  const job = useJobs(selectJob(id));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteArchive, setDeleteArchive] = useState(false);
  if (!job) return null;
  const editable = isEditable(job.status);
  const recorded = isRecorded(job.status);
  return (
    <div className="job-detail" data-testid="job-detail">
      <header className="detail-header">
        <div className="detail-title">
          <h2 data-testid="job-name">{job.job.name}</h2>
          <div className="muted">{job.job.seeds.join(' · ')}</div>
          <div className="muted small">
            <span data-testid="job-created">Created {formatDate(job.createdAt)}</span> · <span title="Archive folder">{job.archiveDir}</span>
            {job.capture != null && (
              <>
                {' · '}
                <span data-testid="job-capture" title="Every figure on this page is of this capture, the archive's latest">
                  Showing capture {job.capture}
                </span>
              </>
            )}
          </div>
        </div>
        <div className="detail-actions">
          {/* A live region: running, paused, finished… are read out as they happen. */}
          <span className={`status status-${job.status}`} role="status" data-testid="job-detail-status">
            {job.status}
          </span>
          <RunControls id={id} status={job.status} />
          {(job.counts?.archived ?? 0) > 0 && (
            <button onClick={() => useNav.getState().openViewer(id)} data-testid="job-browse">
              Browse
            </button>
          )}
          {recorded ? (
            <button
              onClick={() => useNav.getState().openJobForm({ kind: 'create', from: id })}
              title="This capture's settings are part of its record; edit a copy as the next capture"
              data-testid="job-edit"
            >
              New capture…
            </button>
          ) : (
            <button onClick={() => useNav.getState().openJobForm({ kind: 'edit', id })} disabled={!editable} data-testid="job-edit">
              Edit
            </button>
          )}
          <button onClick={() => void useJobs.getState().duplicate(id)} data-testid="job-duplicate">
            Duplicate
          </button>
          <span className="actions-gap" aria-hidden="true" />
          <CancelRun id={id} name={job.job.name} status={job.status} />
          <button className="danger" onClick={() => setConfirmDelete(true)} disabled={!editable} data-testid="job-delete">
            Delete
          </button>
        </div>
      </header>
      {job.status === 'failed' && (
        <p className="error-banner" role="alert" data-testid="job-error">
          The crawl stopped: {job.error ?? 'no reason was reported'}. Resume it (or press s) to try again.
        </p>
      )}
      {job.status === 'finished' && job.error && (
        <p className="error-banner" role="alert" data-testid="job-error">
          Finished with errors: {job.error}
        </p>
      )}
      <Schedule id={id} />
      <Progress id={id} />
      <Summary id={id} />
      {job.status !== 'new' && job.job.template !== null && Object.keys(job.job.template.extract).length > 0 && <ExtractedRecords id={id} version={job.status} />}
      {job.status !== 'new' && job.job.template !== null && <FocusReportView id={id} version={job.status} />}
      <UrlLog id={id} />
      {confirmDelete && (
        <Confirm
          title={`Delete “${job.job.name}”?`}
          confirmLabel="Delete"
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void useJobs.getState().remove(id, deleteArchive);
          }}
          testId="job-delete-confirm"
        >
          <label className="row">
            <input type="checkbox" checked={deleteArchive} onChange={(e) => setDeleteArchive(e.target.checked)} data-testid="job-delete-archive" />
            Also delete its archive folder ({job.archiveDir})
          </label>
        </Confirm>
      )}
    </div>
  );
}
