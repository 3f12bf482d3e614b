import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { parseJob, type Job } from '../../../shared/job.js';
import { DocumentPool } from '../crawl/documentPool.js';
import { finalizeMirror } from '../crawl/finalize.js';
import { Archive } from '../store/archive.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { ImportInputError } from './errors.js';
import { readFile, type FileReading } from './importFile.js';
import type { ImportedFile, ImportOptions, ImportProblem, ImportResult } from './importTypes.js';
import { RecordCatalogue } from './recordCatalogue.js';
import { SeenRecords } from './seenRecords.js';
import { checkInputs, collectInputs, type WarcInput } from './sources.js';
import { WarcCopy } from './warcCopy.js';

export { ImportInputError };
export type { ImportOptions, ImportProblem, ImportProgress, ImportResult } from './importTypes.js';

/** Problems kept in the catalogue's record of the import (all are told to onProblem). */
const PROBLEMS_KEPT = 1_000;
/** Stands in for the seeds until the inputs have been surveyed. */
const PROVISIONAL_SEED = 'http://import.invalid/';

/**
 * Imports other tools' WARC and WACZ files into a new archive folder `outDir`, building what a crawl
 * builds: the catalogue (captures, one per imported crawl), the search index, the WARC files (every
 * record kept as it is) and the offline copy with its links rewritten. A record that can't be read
 * is reported and skipped.
 */
export async function importArchives(inputs: readonly string[], outDir: string, opts: ImportOptions = {}): Promise<ImportResult> {
  if (inputs.length === 0) throw new ImportInputError('nothing to import');
  await checkInputs(inputs);
  const first = Archive.create(outDir, parseJob({ name: opts.name ?? 'Import', seeds: [PROVISIONAL_SEED] }));
  const dir = first.dir;
  let result: Omit<ImportResult, 'documents'>;
  let job: Job;
  try {
    const workDir = path.join(first.mirror.tmpDir, 'import');
    mkdirSync(workDir, { recursive: true });
    const warcs = await collectInputs(inputs, workDir);
    const seeds = seedsOf(warcs);
    job = parseJob({ name: opts.name ?? defaultName(inputs), seeds: seeds.length > 0 ? seeds : [PROVISIONAL_SEED] });
    result = await readAll(first, warcs, new Set(seeds), opts);
    if (seeds.length === 0) job = { ...job, seeds: firstPage(first) };
    first.catalogue.setMeta('job', JSON.stringify(job));
  } finally {
    first.close();
  }
  // Opened again with its real job (the entry page links its seeds); this also clears the work folder.
  const archive = Archive.open(dir);
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  try {
    await pool.ready();
    const documents = await finalizeMirror(archive, pool, (done, total) =>
      opts.onProgress?.({ phase: 'rewriting', done, total, records: result.records, damaged: result.problems.length, duplicates: result.duplicates }),
    { every: true });
    archive.catalogue.setMeta('state', 'finished');
    return { ...result, documents };
  } finally {
    await pool.close();
    archive.close();
  }
}

async function readAll(archive: Archive, warcs: WarcInput[], seeds: ReadonlySet<string>, opts: ImportOptions): Promise<Omit<ImportResult, 'documents'>> {
  const c = archive.catalogue;
  const groups = capturesOf(warcs);
  const problems: ImportProblem[] = [];
  const sources: ImportedFile[] = [];
  const totals = { bytesTotal: warcs.reduce((n, w) => n + w.bytes, 0), bytesBefore: 0, records: 0, catalogued: 0, problems: 0, duplicates: 0 };
  let serial = 0;
  let captures = 0;
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  const index = TextIndex.openWritable(TextIndex.fileIn(archive.dir));
  const reader: FileReading = {
    archive,
    seen: new SeenRecords(c.sqlite),
    cataloguer: new RecordCatalogue(archive, pool, index, seeds),
    totals,
    report: (p) => {
      totals.problems++;
      if (problems.length < PROBLEMS_KEPT) problems.push(p);
      opts.onProblem?.(p);
    },
    ...(opts.onProgress !== undefined && { onProgress: opts.onProgress }),
  };
  try {
    await pool.ready();
    for (const group of groups) {
      const start = group[0]!.firstDate ?? new Date();
      let last = start;
      // A later group's capture begins with its first record not imported before: files that hold
      // nothing new (the same WARC again, a WACZ of files already given) make no capture of their own.
      let begun = false;
      const begin = () => {
        if (begun) return;
        begun = true;
        if (++captures === 1) {
          c.setMeta('started_at', start.toISOString());
          c.ensureCapture(start);
        } else c.beginCapture(start);
      };
      if (captures === 0) c.transaction(begin);
      for (const input of group) {
        const file = await readFile(reader, input, { begin, newWarc: () => WarcCopy.create(archive.warcDir, start, ++serial) });
        if (file.last !== null && file.last > last) last = file.last;
        sources.push({ ...file.source, capture: begun ? c.currentCapture() : null });
      }
      if (!begun) continue;
      c.transaction(() => {
        // Redirect targets no imported file holds were never fetched by the tool that made them.
        c.skipQueued('scope', { keepRequisites: false, except: [] });
        if (captures > 1) c.markUnreachedRemoved(last);
        c.endCaptureRun('finished', last.getTime() - start.getTime(), last);
        c.setMeta('finished_at', last.toISOString());
        c.setMeta('duration_ms', String(last.getTime() - start.getTime()));
      });
    }
    c.transaction(() => {
      c.setMeta('imported_from', JSON.stringify(sources));
      c.setMeta('import_problems', JSON.stringify(problems));
      c.setMeta('import_skipped', String(totals.problems));
    });
    index.close({ optimize: true });
  } catch (e) {
    index.close();
    throw e;
  } finally {
    await pool.close();
  }
  return { dir: archive.dir, captures, files: warcs.length, records: totals.records, catalogued: totals.catalogued, duplicates: totals.duplicates, problems };
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
