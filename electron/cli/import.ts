import { parseArgs } from 'node:util';
import { importArchives } from '../engine/import/importArchives.js';
import { ByteProgress } from './byteProgress.js';
import { CountProgress } from './countProgress.js';
import { UsageError } from './usage.js';

/**
 * `harvest import <file-or-folder>... --out <archive-dir> [--name <title>]`: other tools' WARC and
 * WACZ files as a new archive. Each record that could not be read is named on stderr (file, offset,
 * why) and skipped; the import goes on.
 */
export async function runImport(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { out: { type: 'string', short: 'o' }, name: { type: 'string' }, quiet: { type: 'boolean' } },
    });
  } catch (e) {
    throw new UsageError((e as Error).message, 'import');
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('import needs at least one WARC, WACZ or folder', 'import');
  if (values.out === undefined) throw new UsageError('import needs --out <archive-dir>', 'import');
  const progress = new ByteProgress(process.stderr, values.quiet ?? false);
  const rewriting = new CountProgress(process.stderr, 'URLs checked for the offline copy', values.quiet ?? false);
  const started = Date.now();
  const result = await importArchives(positionals, values.out, {
    ...(values.name !== undefined && { name: values.name }),
    onProgress: (p) => {
      if (p.phase === 'rewriting') return rewriting.update(p.done, p.total);
      progress.update({
        phase: `importing (${p.records} records${p.duplicates > 0 ? `, ${p.duplicates} duplicates left out` : ''}${p.damaged > 0 ? `, ${p.damaged} skipped` : ''})`,
        doneBytes: p.done,
        totalBytes: p.total,
      });
    },
    onProblem: (p) => {
      progress.done();
      process.stderr.write(`skipped: ${p.file} at byte ${p.offset}: ${p.why}\n`);
    },
  });
  progress.done();
  rewriting.done();
  const skipped = result.problems.length;
  process.stderr.write(
    `imported ${result.records} records from ${result.files} file(s) into ${result.dir} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${result.catalogued} answers in ${result.captures} capture(s), ${result.documents} documents rewritten${result.duplicates > 0 ? `, ${result.duplicates} duplicate record(s) stored once` : ''}${skipped > 0 ? `, ${skipped} record(s) skipped` : ''}\n`,
  );
  return 0;
}
