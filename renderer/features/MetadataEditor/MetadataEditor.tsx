import { useEffect, useState } from 'react';
import type { ArchiveSummary } from '../../../shared/appViews.js';
import { DublinCoreSchema, type DublinCore, type MetadataSuggestion } from '../../../shared/metadata.js';
import { useDialog } from '../../lib/dialog.js';
import { useArchives } from '../../stores/archives.js';
import { useToasts } from '../../stores/toasts.js';

type Key = keyof DublinCore;

interface Field {
  key: Key;
  label: string;
  multiline?: boolean;
  list?: boolean;
  help?: string;
}

/** The fifteen Dublin Core elements in the standard's order, then what BagIt's bag-info.txt asks for. */
const FIELDS: Field[] = [
  { key: 'title', label: 'Title' },
  { key: 'creator', label: 'Creator', help: 'Who made the archive, e.g. University Archives' },
  { key: 'subject', label: 'Subjects', list: true, help: 'Comma-separated' },
  { key: 'description', label: 'Description', multiline: true },
  { key: 'publisher', label: 'Publisher' },
  { key: 'contributor', label: 'Contributors', list: true, help: 'Comma-separated names' },
  { key: 'date', label: 'Date', help: 'ISO 8601 / EDTF: 2026, 2026-05-14, 2020/2026, 2026-05~ (about), 1990? (uncertain), 2026-01/.. (open); empty uses the crawl dates' },
  { key: 'type', label: 'Type', help: 'DCMI Type, e.g. Collection or InteractiveResource' },
  { key: 'format', label: 'Format', help: 'e.g. application/warc, text/html' },
  { key: 'identifier', label: 'Identifier', help: 'Your reference: a URL, DOI or call number' },
  { key: 'source', label: 'Source' },
  { key: 'language', label: 'Languages', list: true, help: 'Comma-separated BCP 47 tags, e.g. en, fr-CA' },
  { key: 'relation', label: 'Relation', help: 'A related resource, e.g. an earlier capture' },
  { key: 'coverage', label: 'Coverage', help: 'Place or period, e.g. Oxford, 2020/2026' },
  { key: 'rights', label: 'Rights', multiline: true, help: 'A licence (CC-BY-4.0), its URL, or a rights statement' },
  { key: 'sourceOrganization', label: 'Source organization', help: 'For BagIt bag-info.txt and the WARC operator' },
  { key: 'contactEmail', label: 'Contact email', help: 'For BagIt bag-info.txt and the WARC operator' },
];

type Draft = Record<Key, string>;
type Issues = Partial<Record<Key, string>>;

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

/** The first message for each field with a problem. */
function issuesOf(d: Draft): Issues {
  const parsed = DublinCoreSchema.safeParse(fromDraft(d));
  if (parsed.success) return {};
  const out: Issues = {};
  for (const i of parsed.error.issues) out[String(i.path[0]) as Key] ??= i.message;
  return out;
}

/** Empty title and date take what the crawl suggests, and remember which fields were filled that way. */
function prefill(m: DublinCore, s: MetadataSuggestion | null): { draft: Draft; suggested: Set<Key> } {
  const draft = toDraft(m);
  const suggested = new Set<Key>();
  for (const key of ['title', 'date'] as const) {
    if (draft[key] === '' && s?.[key]) {
      draft[key] = s[key];
      suggested.add(key);
    }
  }
  return { draft, suggested };
}

/** Dublin Core description of one archive, written into its exports and its offline copy's index page. */
export function MetadataEditor({ archive, onClose }: { archive: ArchiveSummary; onClose(): void }) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [suggested, setSuggested] = useState<Set<Key>>(new Set());
  const [issues, setIssues] = useState<Issues>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const store = useArchives.getState();
    void Promise.all([store.getMetadata(archive.jobId), store.suggestMetadata(archive.jobId)]).then(([m, s]) => {
      if (!m) return;
      const filled = prefill(m, s);
      setDraft(filled.draft);
      setSuggested(filled.suggested);
    });
  }, [archive.jobId]);

  const save = async (): Promise<void> => {
    if (!draft) return;
    const parsed = DublinCoreSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      setIssues(issuesOf(draft));
      return;
    }
    setIssues({});
    setSaving(true);
    const saved = await useArchives.getState().setMetadata(archive.jobId, parsed.data);
    setSaving(false);
    if (!saved) return;
    useToasts.getState().push('info', `Metadata of “${archive.name}” saved: it goes into every export and the offline copy's index page.`);
    onClose();
  };

  const dialog = useDialog<HTMLFormElement>(onClose);

  const edit = (key: Key, value: string): void => {
    if (!draft) return;
    const next = { ...draft, [key]: value };
    setDraft(next);
    setSuggested((s) => (s.has(key) ? new Set([...s].filter((k) => k !== key)) : s));
    // A field already marked wrong is checked again as it is corrected.
    if (issues[key]) setIssues({ ...issues, [key]: issuesOf(next)[key] });
  };

  return (
    <div className="modal-backdrop" role="dialog" aria-modal="true" aria-labelledby="metadata-title">
      <form
        ref={dialog}
        className="modal metadata-editor"
        tabIndex={-1}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        data-testid="metadata-editor"
        noValidate
      >
        <h2 id="metadata-title">Metadata of “{archive.name}”</h2>
        <div className="metadata-fields">
          {!draft ? (
            <p className="muted">Loading…</p>
          ) : (
            FIELDS.map((f) => {
              const id = `dc-${f.key}`;
              const props = {
                id,
                value: draft[f.key],
                onChange: (e: { target: { value: string } }) => edit(f.key, e.target.value),
                // Leaving a field checks it, so a bad date or language tag is named before Save.
                onBlur: () => setIssues((prev) => ({ ...prev, [f.key]: issuesOf(draft)[f.key] })),
                'aria-invalid': issues[f.key] ? true : undefined,
                'aria-describedby': issues[f.key] ? `${id}-issues` : undefined,
                'data-testid': `metadata-${f.key}`,
              };
              return (
                <div key={f.key} className={`field${f.multiline ? ' field-text' : ''}${issues[f.key] ? ' invalid' : ''}`}>
                  <label htmlFor={id}>{f.label}</label>
                  {f.multiline ? <textarea rows={3} {...props} /> : <input {...props} />}
                  {suggested.has(f.key) && (
                    <small className="hint" data-testid={`metadata-${f.key}-suggested`}>
                      Suggested from the crawl; Save to keep it
                    </small>
                  )}
                  {f.help && <small className="hint">{f.help}</small>}
                  {issues[f.key] && (
                    <small className="field-issues" id={`${id}-issues`} data-testid={`metadata-${f.key}-issues`}>
                      {issues[f.key]}
                    </small>
                  )}
                </div>
              );
            })
          )}
        </div>
        <div className="modal-actions">
          <button type="button" onClick={onClose} data-testid="metadata-cancel">
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!draft || saving} data-testid="metadata-save">
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </div>
  );
}
