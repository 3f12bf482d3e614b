import { parseArgs } from 'node:util';
import { Archive } from '../engine/store/archive.js';
import { extractedCsvLines } from '../../shared/extracted.js';
import { FocusStore } from '../engine/store/focusStore.js';
import { UsageError } from './usage.js';

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
    const fields = store.columns(Object.keys(archive.job.template?.extract ?? {}));
    if (format === 'json') {
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
