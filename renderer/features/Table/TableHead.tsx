import type { ReactNode } from 'react';

/** A column heading: `num` right-aligns a column of figures; `hidden` names a column only for screen readers. */
export interface Column {
  label: ReactNode;
  num?: boolean;
  title?: string;
  hidden?: boolean;
}

/** A table's one row of column headings, each `scope="col"` so screen readers read it with its cells. */
export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={i} scope="col" className={c.num ? 'num' : undefined} title={c.title}>
            {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
