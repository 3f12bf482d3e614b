import { useEffect } from 'react';
import { useArchives } from '../../stores/archives.js';

/** A choice of archive from the library; with `allLabel`, also every archive at once (value `allValue`). */
export function ArchivePicker({
  value,
  onChange,
  all,
  testId,
}: {
  value: string | null;
  onChange(value: string): void;
  all?: { value: string; label: string };
  testId: string;
}) {
  const list = useArchives((s) => s.list);
  const loaded = useArchives((s) => s.loaded);
  useEffect(() => {
    if (!loaded) void useArchives.getState().load();
  }, [loaded]);
  return (
    <select value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-label="Archive" data-testid={testId}>
      {value === null && <option value="">Choose an archive…</option>}
      {all && <option value={all.value}>{all.label}</option>}
      {list.map((a) => (
        <option key={a.jobId} value={a.jobId}>
          {a.name}
        </option>
      ))}
    </select>
  );
}
