import { useState } from 'react';
import { ScheduleSchema, SCHEDULE_UNITS, type Schedule as ScheduleSettings } from '../../../shared/schedule.js';
import { formatDate } from '../../lib/format.js';
import { describeSchedule, dueReason, todayLocal } from '../../lib/scheduleText.js';
import { selectJob, useJobs } from '../../stores/jobs.js';

/**
 * A job's schedule: when it runs again, and the form that sets it. Times are the host's local time
 * (the desktop app's computer, or the server `harvest serve` runs on).
 */
export function Schedule({ id }: { id: string }) {
  const job = useJobs(selectJob(id));
  const [editing, setEditing] = useState(false);
  if (!job) return null;
  const info = job.schedule ?? null;
  const reason = info?.due ? dueReason(job.status) : null;
  return (
    <section className="schedule" data-testid="job-schedule" aria-label="Schedule">
      {info ? (
        <div className="schedule-line">
          <span data-testid="schedule-summary">{describeSchedule(info.schedule)}</span>
          {job.status === 'cancelled' ? (
            <span className="warning schedule-note" data-testid="schedule-next">
              A cancelled job does not run again: make a new capture (New capture…) and schedule that.
            </span>
          ) : (
            <span className={info.due ? 'warning schedule-note' : 'muted'} data-testid="schedule-next">
              {info.due ? `Run due since ${formatDate(info.nextRunAt)}: ${reason}` : `Next run ${formatDate(info.nextRunAt)}`}
            </span>
          )}
          {info.lastError && (
            <span className="bad" data-testid="schedule-error">
              The last scheduled run could not start: {info.lastError}
            </span>
          )}
        </div>
      ) : (
        !editing && <span className="muted">Runs only when started.</span>
      )}
      {!editing && (
        <button onClick={() => setEditing(true)} data-testid="schedule-edit">
          {info ? 'Change schedule…' : 'Repeat…'}
        </button>
      )}
      {editing && <ScheduleForm id={id} initial={info?.schedule ?? null} onDone={() => setEditing(false)} />}
    </section>
  );
}

interface Draft {
  every: string;
  unit: ScheduleSettings['unit'];
  at: string;
  from: string;
}

function ScheduleForm({ id, initial, onDone }: { id: string; initial: ScheduleSettings | null; onDone(): void }) {
  const [draft, setDraft] = useState<Draft>(
    initial ? { ...initial, every: String(initial.every) } : { every: '1', unit: 'weeks', at: '03:00', from: todayLocal() },
  );
  const [issues, setIssues] = useState<string[]>([]);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const save = async (): Promise<void> => {
    const parsed = ScheduleSchema.safeParse({ ...draft, every: Number(draft.every) });
    if (!parsed.success) {
      setIssues(parsed.error.issues.map((i) => `${FIELD_NAMES[String(i.path[0])] ?? 'Schedule'}: ${i.message}`));
      return;
    }
    if (await useJobs.getState().setSchedule(id, parsed.data)) onDone();
  };
  const remove = async (): Promise<void> => {
    if (await useJobs.getState().setSchedule(id, null)) onDone();
  };

  return (
    <form
      className="schedule-form"
      // The schedule's own checks name the field and the fix; the browser's bubbles would not.
      noValidate
      data-testid="schedule-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Every
        <input type="number" min={1} max={365} value={draft.every} onChange={(e) => set({ every: e.target.value })} data-testid="schedule-every" />
      </label>
      <select aria-label="Unit" value={draft.unit} onChange={(e) => set({ unit: e.target.value as Draft['unit'] })} data-testid="schedule-unit">
        {SCHEDULE_UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
      <label>
        at
        <input type="time" value={draft.at} onChange={(e) => set({ at: e.target.value })} data-testid="schedule-at" />
      </label>
      <label>
        first on
        <input type="date" value={draft.from} onChange={(e) => set({ from: e.target.value })} data-testid="schedule-from" />
      </label>
      <button type="submit" className="primary" data-testid="schedule-save">
        Save schedule
      </button>
      {initial && (
        <button type="button" className="danger" onClick={() => void remove()} data-testid="schedule-remove">
          Remove schedule
        </button>
      )}
      <button type="button" onClick={onDone} data-testid="schedule-cancel">
        Cancel
      </button>
      {issues.length > 0 && (
        <ul className="form-issues" data-testid="schedule-issues">
          {issues.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      <p className="hint">
        Times are the host's local time. A run missed while Harvest was closed runs once when it starts again; a run never starts while a capture of
        this archive is in progress, it waits for it to finish.
      </p>
    </form>
  );
}

const FIELD_NAMES: Record<string, string> = { every: 'Every', unit: 'Unit', at: 'Time', from: 'First day' };
