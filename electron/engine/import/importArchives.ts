import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { parseJob, type Job } from '../../../shared/job.js';
import { DocumentPool } from '../crawl/documentPool.js';
import { finalizeMirror } from '../crawl/finalize.js';
import { Archive } from '../store/archive.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { RecordCatalogue } from './recordCatalogue.js';
import { recordFacts } from './recordFacts.js';
import { ImportInputError } from './errors.js';
import { checkInputs, collectInputs, type WarcInput } from './sources.js';
import { readWarcRecords } from './warcRecords.js';
import { WarcCopy } from './warcCopy.js';

export { ImportInputError };

export interface ImportProgress {
  /** Reading records (done and total are bytes of the input files), then the offline copy's rewrite (URL ids checked). */
  phase: 'reading' | 'rewriting';
  done: number;
  total: number;
  records: number;
  damaged: number;
}

/** A record that could not be imported: where it is and why. */
export interface ImportProblem {
  file: string;
  offset: number;
  why: string;
}

export interface ImportResult {
  dir: string;
  captures: number;
  files: number;
  /** Records copied into the archive's WARC files. */
  records: number;
  /** Of those, the answers put in the catalogue. */
  catalogued: number;
  problems: ImportProblem[];
  /** Documents whose offline copy was written. */
  documents: number;
}

export interface ImportOptions {
  name?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Told of each record skipped, as it is met. */
  onProblem?: (p: ImportProblem) => void;
}

/** Records committed to the catalogue in one transaction. */
const RECORDS_PER_COMMIT = 500;
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
      opts.onProgress?.({ phase: 'rewriting', done, total, records: result.records, damaged: result.problems.length }),
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
  const bytesTotal = warcs.reduce((n, w) => n + w.bytes, 0);
  const problems: ImportProblem[] = [];
  const sources: { file: string; bytes: number; records: number; capture: number; warc: string }[] = [];
  let bytesBefore = 0;
  let records = 0;
  let catalogued = 0;
  let serial = 0;
  const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
  const index = TextIndex.openWritable(TextIndex.fileIn(archive.dir));
  const cataloguer = new RecordCatalogue(archive, pool, index, seeds);
  const report = (p: ImportProblem) => {
    if (problems.length < PROBLEMS_KEPT) problems.push(p);
    opts.onProblem?.(p);
  };
  try {
    await pool.ready();
    for (const [k, group] of groups.entries()) {
      const start = group[0]!.firstDate ?? new Date();
      c.transaction(() => {
        if (k === 0) {
          c.setMeta('started_at', start.toISOString());
          c.ensureCapture(start);
        } else c.beginCapture(start);
      });
      let last = start;
      for (const input of group) {
        const out = await WarcCopy.create(archive.warcDir, start, ++serial);
        let inFile = 0;
        let pending = 0;
        c.sqlite.exec('BEGIN');
        try {
          for await (const item of readWarcRecords(input.path)) {
            if (item.kind === 'damage') report({ file: input.label, offset: item.offset, why: item.why });
            else {
              const f = recordFacts(item.content);
              if (f === null) report({ file: input.label, offset: item.offset, why: 'a record whose WARC head cannot be read' });
              else {
                const place = await out.append(item.content, item.member);
                records++;
                inFile++;
                if (f.date !== null && f.date > last) last = f.date;
                const taken = await cataloguer.take(f, place);
                if (taken.kind === 'catalogued') catalogued++;
                if (taken.kind === 'problem') report({ file: input.label, offset: item.offset, why: taken.why });
                if (++pending >= RECORDS_PER_COMMIT) {
                  c.sqlite.exec('COMMIT; BEGIN');
                  pending = 0;
                }
              }
            }
            opts.onProgress?.({ phase: 'reading', done: bytesBefore + item.end, total: bytesTotal, records, damaged: problems.length });
          }
          c.sqlite.exec('COMMIT');
        } catch (e) {
          if (c.sqlite.inTransaction) c.sqlite.exec('ROLLBACK');
          throw e;
        }
        await out.finish();
        bytesBefore += input.bytes;
        sources.push({ file: input.label, bytes: input.bytes, records: inFile, capture: c.currentCapture(), warc: out.name });
      }
      c.transaction(() => {
        // Redirect targets no imported file holds were never fetched by the tool that made them.
        c.skipQueued('scope', { keepRequisites: false, except: [] });
        if (k > 0) c.markUnreachedRemoved(last);
        c.endCaptureRun('finished', last.getTime() - start.getTime(), last);
        c.setMeta('finished_at', last.toISOString());
        c.setMeta('duration_ms', String(last.getTime() - start.getTime()));
      });
    }
    c.transaction(() => {
      c.setMeta('imported_from', JSON.stringify(sources));
      c.setMeta('import_problems', JSON.stringify(problems));
    });
    index.close({ optimize: true });
  } catch (e) {
    index.close();
    throw e;
  } finally {
    await pool.close();
  }
  return { dir: archive.dir, captures: groups.length, files: warcs.length, records, catalogued, problems };
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
