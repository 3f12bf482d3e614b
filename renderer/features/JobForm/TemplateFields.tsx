import { TEMPLATE_FIELDS, type TemplateDraft, type TemplateDraftResult } from '../../lib/templateDraft.js';

interface Props {
  draft: TemplateDraft;
  /** Issues to show (the form shows them once a field was left or the form was submitted). */
  issues: TemplateDraftResult['issues'];
  onChange(d: TemplateDraft): void;
  onBlur(): void;
}

/** The job form's "Focused harvest" section: a template, field by field (see README, Focused harvests). */
export function TemplateFields({ draft, issues, onChange, onBlur }: Props) {
  return (
    <fieldset className="template-fields" data-testid="template-fields">
      <legend>Focused harvest</legend>
      <div className="field field-bool">
        <label htmlFor="template-enabled">Crawl what matters to a topic first, and extract fields</label>
        <input
          id="template-enabled"
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => onChange({ ...draft, enabled: e.target.checked })}
          data-testid="template-enabled"
        />
      </div>
      {draft.enabled &&
        TEMPLATE_FIELDS.map((f) => {
          const id = `template-${f.key}`;
          const messages = issues[f.key];
          const invalid = messages !== undefined && messages.length > 0;
          const common = { id, onBlur, 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? `${id}-issues` : undefined, 'data-testid': id };
          const value = draft[f.key];
          return (
            <div key={f.key} className={`field field-${f.kind}${invalid ? ' invalid' : ''}`}>
              <label htmlFor={id}>{f.label}</label>
              {f.kind === 'bool' ? (
                <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange({ ...draft, [f.key]: e.target.checked })} />
              ) : f.kind === 'lines' ? (
                <textarea {...common} rows={3} value={String(value)} onChange={(e) => onChange({ ...draft, [f.key]: e.target.value })} />
              ) : (
                <input {...common} value={String(value)} onChange={(e) => onChange({ ...draft, [f.key]: e.target.value })} />
              )}
              <small className="hint">{f.help}</small>
              {invalid && (
                <ul className="field-issues" id={`${id}-issues`} data-testid={`${id}-issues`}>
                  {messages.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
    </fieldset>
  );
}
