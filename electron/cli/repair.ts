import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importArchives } from '../engine/import/importArchives.js';
import { Archive, ArchiveUsageError, CATALOGUE_FILE, WARC_DIR } from '../engine/store/archive.js';
import { ArchiveInUseError, Catalogue, CatalogueDamagedError } from '../engine/store/catalogue.js';
import { ByteProgress } from './byteProgress.js';
import { UsageError } from './usage.js';

/**
 * `harvest repair <archive-dir>`: an archive whose catalogue is damaged, rebuilt from its WARC files
 * by the import (electron/engine/import/) into a new folder beside it, which then takes the
 * archive's place; the damaged folder is kept beside it, renamed, for the archivist to delete.
 */
export async function runRepair(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { quiet: { type: 'boolean' } } });
  } catch (e) {
    throw new UsageError((e as Error).message, 'repair');
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError('repair needs one archive folder', 'repair');
  const abs = path.resolve(dir);
  const catalogue = path.join(abs, CATALOGUE_FILE);
  if (!existsSync(catalogue)) throw new ArchiveUsageError(`${abs} is not a Harvest archive (no ${CATALOGUE_FILE})`);
  // Checked before the lock is taken: a read-only open beside a writer leaves the check to the writer.
  if (Catalogue.isBeingWritten(catalogue)) throw new ArchiveInUseError(catalogue);
  try {
    Archive.open(abs, { readonly: true }).close();
    process.stderr.write(`the catalogue of ${abs} is not damaged (SQLite quick_check: ok); nothing to repair\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof CatalogueDamagedError)) throw e;
  }
  // Held until the rebuilt folder has taken the archive's place: no crawl writes it meanwhile.
  const lock = Catalogue.holdWriterLock(catalogue);
  try {
    return await rebuild(abs, parsed.values.quiet ?? false);
  } finally {
    lock.release();
  }
}

/** Rebuilds the damaged catalogue of `abs` from its WARC files, the writer lock held. */
async function rebuild(abs: string, quiet: boolean): Promise<number> {
  const warcDir = path.join(abs, WARC_DIR);
  const warcs = existsSync(warcDir) ? readdirSync(warcDir).filter((n) => /\.warc(\.gz)?$/.test(n)) : [];
  if (warcs.length === 0) {
    throw new ArchiveUsageError(`${abs} has no WARC files to rebuild its catalogue from (an archive made with --no-warc can't be repaired)`);
  }
  const work = path.join(path.dirname(abs), `.${path.basename(abs)}.repair-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const progress = new ByteProgress(process.stderr, quiet);
  let result;
  try {
    result = await importArchives([warcDir], work, {
      name: path.basename(abs),
      onProgress: (p) => {
        if (p.phase === 'reading') progress.update({ phase: `reading the WARC files (${p.records} records)`, doneBytes: p.done, totalBytes: p.total });
      },
      onProblem: (p) => {
        progress.done();
        process.stderr.write(`skipped: ${p.file} at byte ${p.offset}: ${p.why}\n`);
      },
    });
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  } finally {
    progress.done();
  }
  const kept = `${abs}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(abs, kept);
  renameSync(work, abs);
  process.stderr.write(
    `repaired ${abs} from ${result.files} WARC file(s): ${result.catalogued} answers in ${result.captures} capture(s), ` +
      `${result.documents} documents in the offline copy${result.problems.length > 0 ? `, ${result.problems.length} record(s) skipped` : ''}\n` +
      `the damaged archive is kept at ${kept}; delete it once you have checked the repair\n`,
  );
  return 0;
}
