import type { ReactNode } from 'react';

/** One section of the QA report: a heading, an optional note, and a table or what to say when it is empty. */
export function ReportTable({
  title,
  note,
  head,
  rows,
  empty,
  testId,
}: {
  title: string;
  note?: ReactNode;
  head: string[];
  rows: ReactNode[][];
  empty: string;
  testId: string;
}) {
  return (
    <section className="report-section" data-testid={testId}>
      <h3>{title}</h3>
      {note && <p className="muted small">{note}</p>}
      {rows.length === 0 ? (
        <p className="muted" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <table className="report-table">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={i} className={i > 0 && /^(URLs|Files|References|Size|Bytes)$/.test(h) ? 'num' : undefined}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid={`${testId}-row`}>
                {r.map((cell, j) => (
                  <td key={j} className={j > 0 && /^(URLs|Files|References|Size|Bytes)$/.test(head[j] ?? '') ? 'num' : undefined}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A list of example URLs, one a line. */
export function Examples({ urls }: { urls: string[] }) {
  return (
    <ul className="report-examples">
      {urls.map((u) => (
        <li key={u}>{u}</li>
      ))}
    </ul>
  );
}
