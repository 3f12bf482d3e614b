import { parseArgs } from 'node:util';
import { Archive } from '../engine/store/archive.js';
import { FocusStore, type ExtractedRow } from '../engine/store/focusStore.js';
import { UsageError } from './usage.js';

interface PageRecord {
  url: string;
  capture: string;
  fields: Record<string, { value: string; confidence: number }>;
}

/** Groups the extracted values (ordered by page, then capture) into one record per page capture. */
function* pages(rows: Iterable<ExtractedRow>): Generator<PageRecord> {
  let current: PageRecord | null = null;
  for (const r of rows) {
    if (current === null || current.url !== r.url || current.capture !== r.capture) {
      if (current !== null) yield current;
      current = { url: r.url, capture: r.capture, fields: {} };
    }
    current.fields[r.field] = { value: r.value, confidence: r.confidence };
  }
  if (current !== null) yield current;
}

/** RFC 4180: quoted when it holds a comma, quote or line break. */
function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

async function write(line: string): Promise<void> {
  if (!process.stdout.write(line)) await new Promise((res) => process.stdout.once('drain', res));
}

/** `harvest extract`: a focused harvest's extracted fields, one row per page, as CSV or JSON on stdout. */
export async function runExtract(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { format: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message, 'extract');
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('extract needs exactly one <archive-dir>', 'extract');
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError(`--format must be csv or json, got '${format}'`, 'extract');
  const archive = Archive.open(positionals[0]!, { readonly: true });
  try {
    const store = new FocusStore(archive.catalogue);
    const declared = Object.keys(archive.job.template?.extract ?? {});
    const fields = [...declared, ...store.fieldNames().filter((f) => !declared.includes(f))];
    if (format === 'json') {
      await write('[');
      let first = true;
      for (const p of pages(store.iterateExtracted())) {
        await write((first ? '\n' : ',\n') + JSON.stringify(p));
        first = false;
      }
      await write(first ? ']\n' : '\n]\n');
    } else {
      await write(['url', 'capture', ...fields.flatMap((f) => [f, `${f}_confidence`])].map(csvCell).join(',') + '\r\n');
      for (const p of pages(store.iterateExtracted())) {
        const cells = [p.url, p.capture, ...fields.flatMap((f) => [p.fields[f]?.value ?? '', p.fields[f] ? String(p.fields[f].confidence) : ''])];
        await write(cells.map(csvCell).join(',') + '\r\n');
      }
    }
  } finally {
    archive.close();
  }
  return 0;
}
