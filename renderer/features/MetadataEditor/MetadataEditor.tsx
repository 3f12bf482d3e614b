import { useEffect, useState } from 'react';
import type { ArchiveSummary } from '../../../shared/contract.js';
import { DublinCoreSchema, type DublinCore } from '../../../shared/metadata.js';
import { useArchives } from '../../stores/archives.js';

type Key = keyof DublinCore;

const FIELDS: { key: Key; label: string; multiline?: boolean; list?: boolean; help?: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'creator', label: 'Creator' },
  { key: 'subject', label: 'Subjects', list: true, help: 'Comma-separated' },
  { key: 'description', label: 'Description', multiline: true },
  { key: 'publisher', label: 'Publisher' },
  { key: 'date', label: 'Date', help: 'Free text or ISO 8601; empty uses the crawl dates' },
  { key: 'rights', label: 'Rights', multiline: true },
  { key: 'language', label: 'Languages', list: true, help: 'Comma-separated BCP 47 tags, e.g. en, fr-CA' },
  { key: 'coverage', label: 'Coverage' },
  { key: 'sourceOrganization', label: 'Source organization', help: 'For BagIt bag-info.txt' },
  { key: 'contactEmail', label: 'Contact email', help: 'For BagIt bag-info.txt' },
];

type Draft = Record<Key, string>;

const toDraft = (m: DublinCore): Draft =>
  Object.fromEntries(FIELDS.map((f) => [f.key, Array.isArray(m[f.key]) ? (m[f.key] as string[]).join(', ') : (m[f.key] as string)])) as Draft;

const fromDraft = (d: Draft): Record<string, unknown> =>
  Object.fromEntries(
    FIELDS.map((f) => [
      f.key,
      f.list
        ? d[f.key]
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : d[f.key],
    ]),
  );

/** Dublin Core description of one archive, written into its exports. */
export function MetadataEditor({ archive, onClose }: { archive: ArchiveSummary; onClose(): void }) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [issues, setIssues] = useState<Partial<Record<Key, string>>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void useArchives
      .getState()
      .getMetadata(archive.jobId)
      .then((m) => m && setDraft(toDraft(m)));
  }, [archive.jobId]);

  const save = async (): Promise<void> => {
    if (!draft) return;
    const parsed = DublinCoreSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setIssues({});
    setSaving(true);
    const saved = await useArchives.getState().setMetadata(archive.jobId, parsed.data);
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <div className="modal-backdrop" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <form
        className="modal metadata-editor"
        role="dialog"
        aria-modal="true"
        aria-label={`Metadata of ${archive.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        data-testid="metadata-editor"
      >
        <h2>Metadata of “{archive.name}”</h2>
        {!draft ? (
          <p className="muted">Loading…</p>
        ) : (
          FIELDS.map((f) => {
            const id = `dc-${f.key}`;
            const props = {
              id,
              value: draft[f.key],
              onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [f.key]: e.target.value }),
              'aria-invalid': issues[f.key] ? true : undefined,
              'data-testid': `metadata-${f.key}`,
            };
            return (
              <div key={f.key} className={`field${issues[f.key] ? ' invalid' : ''}`}>
                <label htmlFor={id}>{f.label}</label>
                {f.multiline ? <textarea rows={3} {...props} /> : <input {...props} />}
                {f.help && <small className="hint">{f.help}</small>}
                {issues[f.key] && <small className="field-issues">{issues[f.key]}</small>}
              </div>
            );
          })
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose} data-testid="metadata-cancel">
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!draft || saving} data-testid="metadata-save">
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
