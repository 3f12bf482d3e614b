import path from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import { parseJob, type Job } from '../../../shared/job.js';
import { DocumentPool } from '../crawl/documentPool.js';
import { finalizeMirror } from '../crawl/finalize.js';
import { Archive, ArchiveUsageError, CATALOGUE_FILE } from '../store/archive.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { ImportInputError } from './errors.js';
import { readFile, type FileReading } from './importFile.js';
import { ImportProgressStore, type FileProgress } from './importProgress.js';
import { importPhaseOf, importRunOf, runInputs, setImportPhase, setImportRun, type ImportRun } from './importRun.js';
import type { ImportedFile, ImportOptions, ImportResult } from './importTypes.js';
import { RecordCatalogue } from './recordCatalogue.js';
import { SeenRecords } from './seenRecords.js';
import { checkInputs, collectInputs, type WarcInput } from './sources.js';
import { WarcCopy } from './warcCopy.js';

export { ImportInputError };
export type { ImportOptions, ImportProblem, ImportProgress, ImportResult } from './importTypes.js';

/** Stands in for the seeds until the inputs have been surveyed. */
const PROVISIONAL_SEED = 'http://import.invalid/';

type ReadResult = Omit<ImportResult, 'documents'>;

/**
 * Imports other tools' WARC and WACZ files into a new archive folder `outDir`, building what a crawl
 * builds: the catalogue (captures, one per imported crawl), the search index, the WARC files (every
 * record kept as it is) and the offline copy with its links rewritten. A record that can't be read
 * is reported and skipped.
 *
 * An import that was paused or killed goes on where its catalogue's last commit left it when run
 * again with the same inputs into the same folder (or by resumeImport); `opts.pausing` pauses it at
 * the next record (the result is then `paused`).
 */
export async function importArchives(inputs: readonly string[], outDir: string, opts: ImportOptions = {}): Promise<ImportResult> {
  if (inputs.length === 0) throw new ImportInputError('nothing to import');
  await checkInputs(inputs);
  const run: ImportRun = { inputs: runInputs(inputs), name: opts.name ?? null };
  const first = openFor(outDir, run);
  const dir = first.dir;
  let result: ReadResult;
  try {
    const c = first.catalogue;
    if (importPhaseOf(c) === 'reading') {
      const workDir = path.join(first.mirror.tmpDir, 'import');
      mkdirSync(workDir, { recursive: true });
      const warcs = await collectInputs(inputs, workDir);
      const seeds = seedsOf(warcs);
      let job = parseJob({ name: run.name ?? defaultName(inputs), seeds: seeds.length > 0 ? seeds : [PROVISIONAL_SEED] });
      result = await readAll(first, warcs, new Set(seeds), opts);
      if (result.paused) return { ...result, documents: 0 };
      if (seeds.length === 0) job = { ...job, seeds: firstPage(first) };
      c.transaction(() => {
        c.setMeta('job', JSON.stringify(job));
        setImportPhase(c, 'rewriting');
      });
    } else {
      result = resultOf(first, false);
      // The index's last step, should the import have been killed during it.
      TextIndex.openWritable(TextIndex.fileIn(dir)).close({ optimize: true });
    }
  } finally {
    first.close();
  }
  // Opened again with its real job (the entry page links its seeds); this also clears the work folder.
  const archive = Archive.open(dir);
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  try {
    await pool.ready();
    const documents = await finalizeMirror(archive, pool, (done, total) =>
      opts.onProgress?.({ phase: 'rewriting', done, total, records: result.records, damaged: result.skipped, duplicates: result.duplicates }),
    { every: true });
    archive.catalogue.setMeta('state', 'finished');
    return { ...result, documents };
  } finally {
    await pool.close();
    archive.close();
  }
}

/** Runs again, to its end, the paused or killed import that made the archive in `dir`. */
export async function resumeImport(dir: string, opts: Omit<ImportOptions, 'name'> = {}): Promise<ImportResult> {
  const run = interruptedImportOf(dir);
  if (run === null) throw new ArchiveUsageError(`${path.resolve(dir)} holds no unfinished import`);
  return importArchives(run.inputs, dir, { ...opts, ...(run.name !== null && { name: run.name }) });
}

/** The import that made the archive in `dir` and has not finished; null when there is none. */
export function interruptedImportOf(dir: string): ImportRun | null {
  if (!existsSync(path.join(dir, CATALOGUE_FILE))) return null;
  let archive: Archive;
  try {
    archive = Archive.open(dir, { readonly: true });
  } catch (e) {
    // A folder whose creation was interrupted: Archive.create takes it over.
    if (e instanceof ArchiveUsageError) return null;
    throw e;
  }
  try {
    return archive.catalogue.getMeta('state') === 'finished' ? null : importRunOf(archive.catalogue);
  } finally {
    archive.close();
  }
}

/** Whether `dir` holds an archive an import made and finished. */
function finishedImport(dir: string): boolean {
  if (!existsSync(path.join(dir, CATALOGUE_FILE))) return false;
  let archive: Archive;
  try {
    archive = Archive.open(dir, { readonly: true });
  } catch {
    return false;
  }
  try {
    return importRunOf(archive.catalogue) !== null;
  } finally {
    archive.close();
  }
}

/** A new archive for the import, or the one an interrupted import of the same inputs left in `outDir`. */
function openFor(outDir: string, run: ImportRun): Archive {
  const before = interruptedImportOf(outDir);
  if (before === null) {
    if (finishedImport(outDir)) throw new ArchiveUsageError(`${path.resolve(outDir)} already holds a finished import; choose a new folder`);
    const archive = Archive.create(outDir, parseJob({ name: run.name ?? 'Import', seeds: [PROVISIONAL_SEED] }));
    archive.catalogue.transaction(() => setImportRun(archive.catalogue, run));
    return archive;
  }
  if (before.inputs.join('\n') !== run.inputs.join('\n')) {
    throw new ImportInputError(
      `${path.resolve(outDir)} holds an unfinished import of ${before.inputs.join(', ')}; give the same files to continue it (or run 'harvest resume ${outDir}'), or choose a new folder`,
    );
  }
  return Archive.open(outDir);
}

async function readAll(archive: Archive, warcs: WarcInput[], seeds: ReadonlySet<string>, opts: ImportOptions): Promise<ReadResult> {
  const c = archive.catalogue;
  const store = new ImportProgressStore(c.sqlite);
  const order = capturesOf(warcs);
  const committed = store.files();
  checkSameInputs(order.flat(), committed);
  await WarcCopy.tidy(archive.warcDir, new Map([...committed.values()].filter((f) => f.warc !== null).map((f) => [f.warc!, f.done])));
  const rows = [...committed.values()];
  const sum = (k: 'records' | 'catalogued' | 'duplicates' | 'problems') => rows.reduce((n, f) => n + f[k], 0);
  const totals = {
    bytesTotal: warcs.reduce((n, w) => n + w.bytes, 0),
    bytesBefore: rows.reduce((n, f) => n + (f.done ? f.bytes : 0), 0),
    records: sum('records'),
    catalogued: sum('catalogued'),
    problems: sum('problems'),
    duplicates: sum('duplicates'),
  };
  let serial = rows.filter((f) => f.warc !== null).length;
  let captures = 0;
  const groupsEnded = Number(c.getMeta('import_groups_ended') ?? '0');
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  const index = TextIndex.openWritable(TextIndex.fileIn(archive.dir));
  const reader: FileReading = {
    archive,
    seen: new SeenRecords(c.sqlite),
    cataloguer: new RecordCatalogue(archive, pool, index, seeds),
    index,
    progress: store,
    totals,
    report: (p) => {
      totals.problems++;
      opts.onProblem?.(p);
    },
    ...(opts.onProgress !== undefined && { onProgress: opts.onProgress }),
    pausing: () => opts.pausing?.() === true,
    ...(opts.onCommit !== undefined && { onCommit: opts.onCommit }),
  };
  let position = 0;
  try {
    await pool.ready();
    for (const [g, group] of order.entries()) {
      const start = group[0]!.firstDate ?? new Date();
      const positions = group.map(() => position++);
      let last = start;
      // A later group's capture begins with its first record not imported before: files that hold
      // nothing new (the same WARC again, a WACZ of files already given) make no capture of their own.
      let begun = positions.some((p) => committed.get(p)?.capture != null) || (g === 0 && c.getMeta('started_at') !== null);
      if (begun) captures++;
      const begin = () => {
        if (begun) return;
        begun = true;
        if (++captures === 1) {
          c.setMeta('started_at', start.toISOString());
          c.ensureCapture(start);
        } else c.beginCapture(start);
      };
      if (captures === 0) c.transaction(begin);
      for (const [i, input] of group.entries()) {
        const before = committed.get(positions[i]!) ?? fresh(positions[i]!, input);
        const file = before.done
          ? before
          : await readFile(reader, input, before, {
              begin,
              capture: () => (begun ? c.currentCapture() : null),
              newWarc: () => WarcCopy.create(archive.warcDir, start, ++serial),
            });
        if (!file.done) {
          index.close();
          return { ...resultOf(archive, true), files: warcs.length };
        }
        if (file.lastMs !== null && file.lastMs > last.getTime()) last = new Date(file.lastMs);
      }
      if (!begun || g < groupsEnded) continue;
      c.transaction(() => {
        // Redirect targets no imported file holds were never fetched by the tool that made them.
        c.skipQueued('scope', { keepRequisites: false, except: [] });
        if (captures > 1) c.markUnreachedRemoved(last);
        c.endCaptureRun('finished', last.getTime() - start.getTime(), last);
        c.setMeta('finished_at', last.toISOString());
        c.setMeta('duration_ms', String(last.getTime() - start.getTime()));
        c.setMeta('import_groups_ended', String(g + 1));
      });
    }
    const files = store.files();
    const sources: ImportedFile[] = [...files.values()].map((f) => ({ file: f.label, bytes: f.bytes, records: f.records, duplicates: f.duplicates, capture: f.capture, warc: f.warc }));
    c.transaction(() => {
      c.setMeta('imported_from', JSON.stringify(sources));
      c.setMeta('import_problems', JSON.stringify(store.problems()));
      c.setMeta('import_skipped', String(totals.problems));
    });
    index.close({ optimize: true });
  } catch (e) {
    index.close();
    throw e;
  } finally {
    await pool.close();
  }
  return { ...resultOf(archive, false), files: warcs.length };
}

/** What the import has done so far, as committed. */
function resultOf(archive: Archive, paused: boolean): ReadResult {
  const c = archive.catalogue;
  const store = new ImportProgressStore(c.sqlite);
  const rows = [...store.files().values()];
  const sum = (k: 'records' | 'catalogued' | 'duplicates' | 'problems') => rows.reduce((n, f) => n + f[k], 0);
  const captures = new Set(rows.map((f) => f.capture).filter((n) => n !== null)).size;
  return {
    dir: archive.dir,
    paused,
    captures: Math.max(captures, c.getMeta('started_at') === null ? 0 : 1),
    files: rows.length,
    records: sum('records'),
    catalogued: sum('catalogued'),
    duplicates: sum('duplicates'),
    skipped: sum('problems'),
    problems: store.problems(),
  };
}

function fresh(position: number, input: WarcInput): FileProgress {
  return { position, label: input.label, bytes: input.bytes, at: 0, skip: 0, records: 0, duplicates: 0, catalogued: 0, problems: 0, warc: null, warcBytes: 0, capture: null, lastMs: null, done: false };
}

/** Refuses to go on with files other than those an interrupted import committed records of. */
function checkSameInputs(files: readonly WarcInput[], committed: ReadonlyMap<number, FileProgress>): void {
  for (const [position, f] of committed) {
    const now = files[position];
    if (now === undefined || now.label !== f.label || now.bytes !== f.bytes) {
      throw new ImportInputError(`the files to import are not those the interrupted import read: ${f.label} (${f.bytes} bytes) is ${now === undefined ? 'missing' : `now ${now.label} (${now.bytes} bytes)`}`);
    }
  }
}

/** The inputs by capture: files of one group together, groups by their first record's date. */
function capturesOf(warcs: readonly WarcInput[]): WarcInput[][] {
  const byGroup = new Map<string, WarcInput[]>();
  for (const w of warcs) byGroup.set(w.group, [...(byGroup.get(w.group) ?? []), w]);
  const time = (w: WarcInput) => w.firstDate?.getTime() ?? Number.MAX_SAFE_INTEGER;
  const groups = [...byGroup.values()].map((g) => g.sort((a, b) => time(a) - time(b) || (a.label < b.label ? -1 : 1)));
  return groups.sort((a, b) => time(a[0]!) - time(b[0]!));
}

function seedsOf(warcs: readonly WarcInput[]): string[] {
  const seeds = warcs.map((w) => (w.firstPage === null ? null : canonicalize(w.firstPage))).filter((u): u is string => u !== null);
  return [...new Set(seeds)];
}

/** Seeds for files whose first records named no page: the first HTML page imported. */
function firstPage(archive: Archive): string[] {
  const pages = archive.catalogue.iterateHtmlPages();
  const page = pages.next();
  pages.return(undefined);
  return page.done ? [PROVISIONAL_SEED] : [page.value.url];
}

function defaultName(inputs: readonly string[]): string {
  const base = path.basename(path.resolve(inputs[0]!));
  return `Import of ${base}${inputs.length > 1 ? ` and ${inputs.length - 1} more` : ''}`;
}
