import { useEffect, useMemo, useState } from 'react';
import { extractedCsvLines, type ExtractedRecord, type ExtractedTable } from '../../../shared/extracted.js';
import { commandValue } from '../../stores/command.js';

interface Props {
  id: string;
  /** Changes when the records may have changed (a run ended), to read them again. */
  version: string;
}

type SortKey = 'url' | 'capture' | string;

/** A focused harvest's extracted records: a column per field, sorted by any column, exported as CSV. */
export function ExtractedRecords({ id, version }: Props) {
  const [table, setTable] = useState<ExtractedTable | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: 'url', ascending: true });
  useEffect(() => {
    let live = true;
    void commandValue('archives.extracted', { id, limit: 10_000 }).then((t) => live && setTable(t));
    return () => {
      live = false;
    };
  }, [id, version]);
  const rows = useMemo(() => (table === null ? [] : sorted(table.records, sort.key, sort.ascending)), [table, sort]);
  if (table === null) return null;
  const columns: SortKey[] = ['url', 'capture', ...table.fields];
  const toggle = (key: SortKey) => setSort((s) => ({ key, ascending: s.key === key ? !s.ascending : true }));
  return (
    <section className="extracted" data-testid="extracted-records">
      <div className="row">
        <h3>Extracted records</h3>
        <span className="muted" data-testid="extracted-count">
          {table.records.length === 1 ? '1 record' : `${table.records.length} records`}
          {table.truncated && ' (the first ones; harvest extract gives them all)'}
        </span>
        <button type="button" disabled={table.records.length === 0} onClick={() => download(table, rows)} data-testid="extracted-export-csv">
          Export CSV
        </button>
      </div>
      {table.records.length === 0 ? (
        <p className="muted">No fields extracted yet.</p>
      ) : (
        <div className="extracted-scroll">
          <table data-testid="extracted-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} aria-sort={sort.key === c ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" onClick={() => toggle(c)} data-testid={`extracted-sort-${c}`}>
                      {c}
                      {sort.key === c ? (sort.ascending ? ' ▲' : ' ▼') : ''}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.url} ${r.capture}`}>
                  <td className="url">
                    {r.url}
                    {r.duplicateOf !== null && <div className="muted" data-testid="extracted-repeats">near-duplicate of {r.duplicateOf}</div>}
                  </td>
                  <td>{r.capture}</td>
                  {table.fields.map((f) => (
                    <td key={f} title={r.fields[f] ? `confidence ${r.fields[f].confidence}` : undefined}>
                      {r.fields[f]?.value ?? ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function cell(r: ExtractedRecord, key: SortKey): string {
  if (key === 'url') return r.url;
  if (key === 'capture') return r.capture;
  return r.fields[key]?.value ?? '';
}

/** Empty cells last either way; text compared as people read it (numbers by value, any language). */
export function sorted(records: readonly ExtractedRecord[], key: SortKey, ascending: boolean): ExtractedRecord[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...records].sort((a, b) => {
    const x = cell(a, key);
    const y = cell(b, key);
    if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
    return (ascending ? 1 : -1) * collator.compare(x, y);
  });
}

/** The records as `harvest extract --format csv` writes them, in the table's order. */
export function csvOf(table: ExtractedTable, rows: readonly ExtractedRecord[]): string {
  return [...extractedCsvLines(table.fields, rows)].join('');
}

function download(table: ExtractedTable, rows: readonly ExtractedRecord[]): void {
  const url = URL.createObjectURL(new Blob([csvOf(table, rows)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'extracted.csv';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
