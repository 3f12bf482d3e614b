import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatDate } from '../../lib/format.js';
import { CookiesTxtError, parseCookiesTxt } from '../../../shared/cookiesTxt.js';
import type { JobIssue } from '../../../shared/job.js';
import { FIELDS, describeDefault, draftFromJob, draftToInput, issuesByField, type FieldDef, type JobDraft } from '../../lib/jobDraft.js';
import { templateDraftOf, templateFromDraft, type TemplateDraft } from '../../lib/templateDraft.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { commandValue } from '../../stores/command.js';
import { selectJobsLike, useJobs } from '../../stores/jobs.js';
import { useNav, type JobFormMode } from '../../stores/nav.js';
import { TemplateFields } from './TemplateFields.js';

const GROUPS = [...new Set(FIELDS.map((f) => f.group))];
const SCOPE_MODES = [
  { value: 'host', label: "The seed's host only" },
  { value: 'domain', label: 'The whole domain and its subdomains' },
  { value: 'prefix', label: "The seed's folder (path prefix)" },
];

interface Props {
  mode: JobFormMode;
  onDone(): void;
}

/** Create or edit a job. Checked as you type with the host's own schema; the host's verdict is shown the same way. */
export function JobForm({ mode, onDone }: Props) {
  const info = useApp((s) => s.info);
  const isWeb = useApp(selectIsWebHost);
  const editing = mode.kind === 'edit' ? useJobs.getState().byId[mode.id] : undefined;
  /** A new capture starts from a recorded job's settings (and maybe more seeds). */
  const from = mode.kind === 'create' && mode.from ? useJobs.getState().byId[mode.from] : undefined;
  const source = editing ?? from;
  const [initial] = useState<JobDraft>(() => {
    const d = draftFromJob(source?.job ?? { ...info?.defaults, seeds: [] });
    const extra = mode.kind === 'create' ? (mode.addSeeds ?? []) : [];
    return extra.length ? { ...d, seeds: [String(d.seeds ?? ''), ...extra].filter((l) => l.trim() !== '').join('\n') } : d;
  });
  const [draft, setDraft] = useState<JobDraft>(initial);
  const [archiveDir, setArchiveDir] = useState('');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [hostIssues, setHostIssues] = useState<JobIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const [templateDraft, setTemplateDraft] = useState<TemplateDraft>(() => templateDraftOf(source?.job.template ?? null));
  const [templateTouched, setTemplateTouched] = useState(false);

  const tpl = useMemo(() => templateFromDraft(templateDraft), [templateDraft]);
  const local = useMemo(() => {
    const base = source ? (source.job as unknown as Record<string, unknown>) : {};
    const r = draftToInput(draft, { ...base, template: tpl.template });
    // The template's own issues are shown on its fields (TemplateFields).
    return { input: r.input, issues: r.issues.filter((i) => !i.path.startsWith('template')) };
  }, [draft, source, tpl]);
  const templateIssues = Object.keys(tpl.issues).length > 0;
  const dirty =
    archiveDir.trim() !== '' || FIELDS.some((f) => draft[f.path] !== initial[f.path]) || JSON.stringify(templateDraft) !== JSON.stringify(templateDraftOf(source?.job.template ?? null));
  useEffect(() => {
    useNav.getState().setFormDirty(dirty);
    if (!dirty) return;
    // Closing or reloading the browser tab would lose the edits too.
    const onUnload = (e: BeforeUnloadEvent): void => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
  useEffect(() => () => useNav.getState().setFormDirty(false), []);
  // Opened by n or New job, the form starts on its first field, where a keyboard user types next (WCAG 2.4.3).
  useEffect(() => document.getElementById(`job-${FIELDS[0]!.path.replace(/\./g, '-')}`)?.focus(), []);
  const twins = useJobs(useShallow(selectJobsLike(String(draft.name ?? ''), linesOf(draft.seeds), editing?.id)));
  const shown = issuesByField([...local.issues.filter((i) => submitted || touched[fieldOf(i.path)]), ...hostIssues]);

  const set = (path: string, value: string | boolean): void => {
    setDraft((d) => ({ ...d, [path]: value }));
    setHostIssues((issues) => issues.filter((i) => fieldOf(i.path) !== path));
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSubmitted(true);
    if (local.issues.length > 0) {
      focusField(local.issues[0]?.path ?? '');
      return;
    }
    if (templateIssues) {
      document.getElementById(`template-${Object.keys(tpl.issues)[0] ?? ''}`)?.focus();
      return;
    }
    setBusy(true);
    const jobs = useJobs.getState();
    const reply = mode.kind === 'edit' ? await jobs.update(mode.id, local.input) : await jobs.create(local.input, archiveDir.trim() || undefined);
    setBusy(false);
    if (reply.ok) {
      useNav.getState().setFormDirty(false);
      onDone();
    }
    else if (reply.error.code === 'invalid-job') {
      const issues = reply.error.issues ?? [{ path: '', message: reply.error.message }];
      setHostIssues(issues);
      focusField(issues[0]?.path ?? '');
    }
  };

  const chooseFolder = async (): Promise<void> => {
    const chosen = await commandValue('dialog.chooseFolder', { title: 'Archive folder' });
    if (chosen?.path) setArchiveDir(chosen.path);
  };

  return (
    <form className="job-form" onSubmit={(e) => void submit(e)} noValidate data-testid="job-form">
      <h2>{mode.kind === 'edit' ? `Edit “${editing?.job.name ?? ''}”` : from ? `New capture of “${from.job.name}”` : 'New job'}</h2>
      {from && (
        <p className="note" data-testid="job-form-capture-note">
          The capture of {formatDate(from.createdAt)} keeps the settings it was made with. These settings make a new job with its own archive folder.
        </p>
      )}
      {twins.length > 0 && (
        <p className="warning" role="status" data-testid="job-form-twin">
          {twins.length === 1 ? 'Another job has' : `${twins.length} other jobs have`} this name and these seeds (created{' '}
          {twins.map((t) => formatDate(t.createdAt)).join(', ')}).{' '}
          {from
            ? 'That is expected for a new capture: the jobs are told apart by their creation date.'
            : 'The jobs are told apart by their creation date; consider a distinct name.'}
        </p>
      )}
      {shown[''] && (
        <ul className="form-issues" data-testid="job-form-issues">
          {shown[''].map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {GROUPS.map((group) => (
        <fieldset key={group}>
          <legend>{group}</legend>
          {FIELDS.filter((f) => f.group === group).map((f) => (
            <Field
              key={f.path}
              field={f}
              value={draft[f.path] ?? ''}
              defaultText={describeDefault(f, info?.defaults ?? null)}
              messages={shown[f.path]}
              onChange={(v) => set(f.path, v)}
              onBlur={() => setTouched((t) => ({ ...t, [f.path]: true }))}
            />
          ))}
          {group === 'Site' && mode.kind === 'create' && (
            <div className="field">
              <label htmlFor="job-archive-dir">Archive folder</label>
              <div className="row">
                <input
                  id="job-archive-dir"
                  value={archiveDir}
                  placeholder="Default location"
                  aria-describedby="job-archive-dir-hint"
                  onChange={(e) => setArchiveDir(e.target.value)}
                  data-testid="job-archive-dir"
                />
                {!isWeb && (
                  <button type="button" onClick={() => void chooseFolder()} data-testid="job-choose-folder">
                    Choose…
                  </button>
                )}
              </div>
              {/* The default path in full, wrapping: a placeholder would cut it at the field's width. */}
              <small className="hint path-hint" id="job-archive-dir-hint" data-testid="job-archive-dir-hint">
                {info ? `Default: a new folder in ${info.dataDir}` : 'Default: a new folder in the data folder'}
              </small>
            </div>
          )}
        </fieldset>
      ))}
      <TemplateFields
        draft={templateDraft}
        issues={submitted || templateTouched ? tpl.issues : {}}
        onChange={setTemplateDraft}
        onBlur={() => setTemplateTouched(true)}
      />
      <div className="form-actions">
        <button type="button" onClick={onDone} data-testid="job-form-cancel">
          {dirty ? 'Discard…' : 'Cancel'}
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid="job-form-save">
          {mode.kind === 'edit' ? 'Save' : from ? 'Create the new capture' : 'Create job'}
        </button>
      </div>
    </form>
  );
}

const linesOf = (v: string | boolean | undefined): string[] =>
  String(v ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Moves focus (and the scroll position) to the field of an issue. */
function focusField(issuePath: string): void {
  const path = fieldOf(issuePath);
  if (path) document.getElementById(`job-${path.replace(/\./g, '-')}`)?.focus();
}

/** The field an issue path belongs to. */
function fieldOf(path: string): string {
  return FIELDS.find((f) => path === f.path || path.startsWith(`${f.path}.`))?.path ?? '';
}

interface FieldProps {
  field: FieldDef;
  value: string | boolean;
  defaultText: string | null;
  messages: string[] | undefined;
  onChange(v: string | boolean): void;
  onBlur(): void;
}

function Field({ field, value, defaultText, messages, onChange, onBlur }: FieldProps) {
  const id = `job-${field.path.replace(/\./g, '-')}`;
  const testId = `job-field-${field.path}`;
  const invalid = messages && messages.length > 0;
  const describedBy = invalid ? `${id}-issues` : undefined;
  const common = { id, onBlur, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy, 'data-testid': testId };
  let control;
  if (field.kind === 'bool') {
    control = <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (field.kind === 'scope') {
    control = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {SCOPE_MODES.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'cookies') {
    control = <CookiesField common={common} value={String(value)} onChange={onChange} />;
  } else if (field.kind === 'lines') {
    control = <textarea {...common} rows={field.path === 'seeds' ? 3 : 2} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  } else {
    control = (
      <input
        {...common}
        type={field.kind === 'password' ? 'password' : undefined}
        autoComplete={field.kind === 'password' ? 'new-password' : undefined}
        inputMode={field.kind === 'int' ? 'numeric' : undefined}
        placeholder={field.nullable ? (field.nullLabel ?? 'no limit') : undefined}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={`field field-${field.kind}${invalid ? ' invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.unit && <span className="unit"> ({field.unit})</span>}
      </label>
      {control}
      {(field.help || defaultText) && (
        <small className="hint">
          {field.help}
          {field.help && defaultText ? ' · ' : ''}
          {defaultText && `Default: ${defaultText}`}
        </small>
      )}
      {invalid && (
        <ul className="field-issues" id={`${id}-issues`} data-testid={`${testId}-issues`}>
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface CookiesProps {
  common: { id: string; onBlur(): void; 'data-testid': string };
  /** The cookies as JSON (the draft keeps every value as text). */
  value: string;
  onChange(v: string): void;
}

/** Imports a cookies.txt: shows how many cookies the job sends, and clears them. */
function CookiesField({ common, value, onChange }: CookiesProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const count = (JSON.parse(value || '[]') as unknown[]).length;
  const load = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    try {
      onChange(JSON.stringify(parseCookiesTxt(await file.text())));
      setProblem(null);
    } catch (e) {
      setProblem(e instanceof CookiesTxtError ? e.message : String(e));
    }
  };
  return (
    <div className="row">
      <span className="nowrap" data-testid={`${common['data-testid']}-count`}>
        {count === 1 ? '1 cookie' : `${count} cookies`}
      </span>
      <input id={common.id} type="file" accept=".txt,text/plain" onBlur={common.onBlur} data-testid={common['data-testid']} onChange={(e) => void load(e.target.files?.[0])} />
      {count > 0 && (
        <button type="button" onClick={() => onChange('[]')} data-testid={`${common['data-testid']}-clear`}>
          Clear
        </button>
      )}
      {problem && <small className="error-banner">{problem}</small>}
    </div>
  );
}
