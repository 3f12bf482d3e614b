import { formatBytes, formatCount } from '../../../shared/format.js';
import type { ImportReport } from '../../../shared/report.js';
import type { Table } from './table.js';

/** The import section (`harvest import`) as report tables: the files read, then the records skipped. */
export function importTables(r: ImportReport | null | undefined): Table[] {
  if (r === null || r === undefined) return [];
  const duplicates = r.files.reduce((n, f) => n + f.duplicates, 0);
  return [
    {
      title: 'Imported files',
      note: `${formatCount(r.files.reduce((n, f) => n + f.records, 0))} records imported; ${formatCount(duplicates)} left out as duplicates of records imported before; ${formatCount(r.skipped)} skipped as unreadable.`,
      head: ['File', 'Size', 'Records', 'Duplicates', 'Capture', 'WARC file in the archive'],
      rows: r.files.map((f) => [f.file, formatBytes(f.bytes), formatCount(f.records), formatCount(f.duplicates), f.capture === null ? '–' : String(f.capture), f.warc ?? '– (nothing new)']),
      empty: 'No files.',
    },
    {
      title: 'Records skipped on import',
      ...(r.skipped > r.problems.length && { note: `The first ${formatCount(r.problems.length)} of ${formatCount(r.skipped)}.` }),
      head: ['File', 'Offset', 'Why'],
      rows: r.problems.map((p) => [p.file, String(p.offset), p.why]),
      empty: 'Every record could be read.',
    },
  ];
}
