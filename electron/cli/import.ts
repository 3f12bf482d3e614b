import { parseArgs } from 'node:util';
import { importArchives, interruptedImportOf, resumeImport, type ImportOptions, type ImportResult } from '../engine/import/importArchives.js';
import { ByteProgress } from './byteProgress.js';
import { CountProgress } from './countProgress.js';
import { EventLog } from './eventLog.js';
import { UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

/**
 * `harvest import <file-or-folder>... --out <archive-dir> [--name <title>]`: other tools' WARC and
 * WACZ files as a new archive. Each record that could not be read is named on stderr (file, offset,
 * why) and skipped; the import goes on. Ctrl-C pauses it at the next record; the same command again,
 * or `harvest resume <archive-dir>`, goes on from there, as it does after a kill.
 */
export async function runImport(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { out: { type: 'string', short: 'o' }, name: { type: 'string' }, quiet: { type: 'boolean' }, 'events-jsonl': { type: 'string' } },
    });
  } catch (e) {
    throw new UsageError((e as Error).message, 'import');
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('import needs at least one WARC, WACZ or folder', 'import');
  if (values.out === undefined) throw new UsageError('import needs --out <archive-dir>', 'import');
  const out = values.out;
  return runWithProgress(out, values.quiet ?? false, values['events-jsonl'], (opts) => importArchives(positionals, out, { ...opts, ...(values.name !== undefined && { name: values.name }) }));
}

/** `harvest resume <archive-dir>` of an archive an import was making. */
export async function runImportResume(dir: string, quiet: boolean, eventsFile: string | undefined): Promise<number> {
  return runWithProgress(dir, quiet, eventsFile, (opts) => resumeImport(dir, opts));
}

/** Whether `harvest resume <dir>` is to go on with an import rather than a crawl. */
export function isUnfinishedImport(dir: string): boolean {
  return interruptedImportOf(dir) !== null;
}

/** A line of `--events-jsonl`: each commit of the catalogue (records committed in all), and the finishing pass's start. */
export type ImportEvent = { type: 'committed'; records: number; file: string } | { type: 'rewriting' };

async function runWithProgress(dir: string, quiet: boolean, eventsFile: string | undefined, run: (opts: ImportOptions) => Promise<ImportResult>): Promise<number> {
  const events = openImportLog(eventsFile);
  const progress = new ByteProgress(process.stderr, quiet);
  const rewriting = new CountProgress(process.stderr, 'URLs checked for the offline copy', quiet);
  const started = Date.now();
  if (interruptedImportOf(dir) !== null && !quiet) process.stderr.write(`going on with the unfinished import in ${dir}\n`);
  let interrupts = 0;
  let rewritingPhase = false;
  const stopListening = onInterrupt(() => {
    interrupts++;
    progress.done();
    if (interrupts > 1 || rewritingPhase) {
      // The offline copy is written again from the start by a resume.
      process.stderr.write(`stopped\nresume with: harvest resume ${dir}\n`);
      process.exit(130);
    }
    process.stderr.write('pausing at the next record (Ctrl-C again to quit at once)\n');
  });
  let result: ImportResult;
  try {
    result = await run({
      pausing: () => interrupts > 0,
      onCommit: (c) => events?.write({ type: 'committed', ...c }),
      onProgress: (p) => {
        if (p.phase === 'rewriting') {
          if (!rewritingPhase) events?.write({ type: 'rewriting' });
          rewritingPhase = true;
          return rewriting.update(p.done, p.total);
        }
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
  } finally {
    stopListening();
    await events?.close();
  }
  progress.done();
  rewriting.done();
  const skipped = result.skipped;
  const counts = `${result.duplicates > 0 ? `, ${result.duplicates} duplicate record(s) stored once` : ''}${skipped > 0 ? `, ${skipped} record(s) skipped` : ''}`;
  if (result.paused) {
    process.stderr.write(`paused: ${result.records} records imported so far into ${result.dir}${counts}\nresume with: harvest resume ${dir}\n`);
    return 130;
  }
  process.stderr.write(
    `imported ${result.records} records from ${result.files} file(s) into ${result.dir} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${result.catalogued} answers in ${result.captures} capture(s), ${result.documents} documents rewritten${counts}\n`,
  );
  return 0;
}

function openImportLog(file: string | undefined): EventLog<ImportEvent> | null {
  if (file === undefined) return null;
  try {
    return new EventLog<ImportEvent>(file);
  } catch (e) {
    throw new UsageError(`--events-jsonl: cannot open ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'import');
  }
}
