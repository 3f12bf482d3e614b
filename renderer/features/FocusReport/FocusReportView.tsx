import { useEffect, useState } from 'react';
import type { FocusReport } from '../../../shared/extracted.js';
import { commandValue } from '../../stores/command.js';
import { TableHead } from '../Table/TableHead.js';

interface Props {
  id: string;
  /** Changes when the report may have changed (a run ended), to read it again. */
  version: string;
}

/** "100%", "95.3%": a similarity as people read it. */
export function percent(similarity: number): string {
  return `${Math.round(similarity * 1000) / 10}%`;
}

/**
 * A focused harvest's report (`harvest extract --format report`): per field, the pages that held it,
 * the values found and a few to check; the near-duplicate groups, each copy with its similarity to
 * the original and "Not a duplicate" (undone the same way), which the next re-crawl honours.
 */
export function FocusReportView({ id, version }: Props) {
  const [report, setReport] = useState<FocusReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  useEffect(() => {
    let live = true;
    void commandValue('archives.focusReport', { id }).then((r) => live && setReport(r));
    return () => {
      live = false;
    };
  }, [id, version]);
  if (report === null) return null;

  const mark = async (url: string, notDuplicate: boolean) => {
    if (busy !== null) return;
    setBusy(url);
    const done = await commandValue('archives.markNotDuplicate', { id, url, notDuplicate });
    setBusy(null);
    if (done === null) return;
    setReport((r) =>
      r === null
        ? r
        : { ...r, nearDuplicates: r.nearDuplicates.map((g) => ({ ...g, copies: g.copies.map((c) => (c.url === url ? { ...c, notDuplicate } : c)) })) },
    );
    setSaid(notDuplicate ? `${url}: not a duplicate; the next re-crawl judges it as an original.` : `${url}: flagged as a near-duplicate again.`);
  };

  const copies = report.nearDuplicates.reduce((n, g) => n + g.copies.length, 0);
  return (
    <section className="focus-report" aria-labelledby="focus-report-title" data-testid="focus-report">
      <h3 id="focus-report-title">Extraction report</h3>
      {report.fields.length === 0 ? (
        <p className="muted">No fields to extract.</p>
      ) : (
        <table className="focus-fields" data-testid="focus-report-fields">
          <caption className="muted">Per field: how many pages held it, how many values were found, and the first few to check.</caption>
          <TableHead columns={[{ label: 'Field' }, { label: 'Pages', num: true }, { label: 'Values', num: true }, { label: 'Sample to check' }]} />
          <tbody>
            {report.fields.map((f) => (
              <tr key={f.field} data-testid="focus-field">
                <th scope="row">{f.field}</th>
                <td className="num" data-testid="focus-field-pages">
                  {f.pages}
                </td>
                <td className="num" data-testid="focus-field-values">
                  {f.values}
                </td>
                <td>
                  {f.sample.length === 0 ? (
                    <span className="muted">none found</span>
                  ) : (
                    <ul className="focus-sample" data-testid="focus-field-sample">
                      {f.sample.map((s, i) => (
                        <li key={i}>
                          <span className="focus-value">{s.value}</span> <span className="muted small">{s.url}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4 id="focus-dups-title">Near-duplicates</h4>
      {report.nearDuplicates.length === 0 ? (
        <p className="muted" data-testid="focus-dups-none">
          No page was flagged as a near-duplicate.
        </p>
      ) : (
        <>
          <p className="muted" data-testid="focus-dups-count">
            {copies === 1 ? '1 page' : `${copies} pages`} flagged as copies of {report.nearDuplicates.length === 1 ? '1 original' : `${report.nearDuplicates.length} originals`}.
            A flag marked “Not a duplicate” stays in this capture; the next re-crawl judges the page as an original.
          </p>
          <div className="focus-dups-scroll">
            <table className="focus-dups" aria-labelledby="focus-dups-title" data-testid="focus-dups">
              <TableHead columns={[{ label: 'Copy' }, { label: 'Similarity', num: true }, { label: 'Flag' }]} />
              {report.nearDuplicates.map((g) => (
                <tbody key={g.original} data-testid="focus-dup-group">
                  <tr>
                    <th scope="rowgroup" colSpan={3} className="focus-original">
                      Original: <span data-testid="focus-dup-original">{g.original}</span>
                    </th>
                  </tr>
                  {g.copies.map((c) => (
                    <tr key={c.url} data-testid="focus-dup-copy" className={c.notDuplicate ? 'marked' : undefined}>
                      <td className="url">{c.url}</td>
                      <td className="num">{percent(c.similarity)}</td>
                      <td>
                        {c.notDuplicate && <span className="focus-marked">Not a duplicate </span>}
                        <button
                          type="button"
                          // Not `disabled`: that would take the keyboard focus from the button while the host answers.
                          aria-disabled={busy === c.url || undefined}
                          aria-label={c.notDuplicate ? `Undo: flag ${c.url} as a near-duplicate again` : `Not a duplicate: ${c.url}`}
                          onClick={() => void mark(c.url, !c.notDuplicate)}
                          data-testid="focus-dup-toggle"
                        >
                          {c.notDuplicate ? 'Undo' : 'Not a duplicate'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        </>
      )}
      <p className="sr-only" role="status" data-testid="focus-dups-said">
        {said}
      </p>
    </section>
  );
}
