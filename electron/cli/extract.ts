import { parseArgs } from 'node:util';
import { Archive } from '../engine/store/archive.js';
import { extractedCsvLines } from '../../shared/extracted.js';
import { focusReport } from '../engine/store/focusReport.js';
import { FocusStore } from '../engine/store/focusStore.js';
import { UsageError } from './usage.js';

async function write(line: string): Promise<void> {
  if (!process.stdout.write(line)) await new Promise((res) => process.stdout.once('drain', res));
}

/**
 * `harvest extract`: a focused harvest's extracted fields, one row per page, as CSV or JSON on stdout;
 * or its report (per field, pages, values and a sample; near-duplicate groups) as JSON. With
 * `--not-duplicate <url>`: marks that page's near-duplicate flag false, for later runs to remember.
 */
export async function runExtract(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { format: { type: 'string' }, 'not-duplicate': { type: 'string', multiple: true } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message, 'extract');
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('extract needs exactly one <archive-dir>', 'extract');
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json' && format !== 'report') throw new UsageError(`--format must be csv, json or report, got '${format}'`, 'extract');
  const marks = values['not-duplicate'] ?? [];
  if (marks.length > 0) return markDistinct(positionals[0]!, marks);
  const archive = Archive.open(positionals[0]!, { readonly: true });
  try {
    const store = new FocusStore(archive.catalogue);
    const fields = store.columns(Object.keys(archive.job.template?.extract ?? {}));
    if (format === 'report') await write(JSON.stringify(focusReport(store, fields), null, 2) + '\n');
    else if (format === 'json') {
      await write('[');
      let first = true;
      for (const p of store.iterateRecords()) {
        await write((first ? '\n' : ',\n') + JSON.stringify(p));
        first = false;
      }
      await write(first ? ']\n' : '\n]\n');
    } else {
      for (const line of extractedCsvLines(fields, store.iterateRecords())) await write(line);
    }
  } finally {
    archive.close();
  }
  return 0;
}

/** Marks each page's near-duplicate flag false; a re-crawl then judges it as an original. */
function markDistinct(dir: string, urls: readonly string[]): number {
  const archive = Archive.open(dir);
  try {
    const store = new FocusStore(archive.catalogue);
    for (const url of urls) {
      const row = archive.catalogue.lookup(url);
      if (row === undefined || !store.markDistinct(row.id)) throw new UsageError(`${url} is not a page flagged as a near-duplicate in this archive`, 'extract');
      process.stdout.write(`${url}: not a near-duplicate; the next re-crawl judges it as an original\n`);
    }
  } finally {
    archive.close();
  }
  return 0;
}
