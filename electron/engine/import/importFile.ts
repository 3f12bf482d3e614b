import type { Archive } from '../store/archive.js';
import type { TextIndex } from '../store/textIndex.js';
import type { FileProgress, ImportProgressStore } from './importProgress.js';
import type { ImportOptions, ImportProblem, ImportProgress } from './importTypes.js';
import type { RecordCatalogue } from './recordCatalogue.js';
import { recordFacts } from './recordFacts.js';
import { RecordWindow } from './recordWindow.js';
import type { SeenRecords } from './seenRecords.js';
import type { WarcInput } from './sources.js';
import { WarcCopy } from './warcCopy.js';
import { readWarcRecords } from './warcRecords.js';

/** Items (records, duplicates, damage) read between two commits of the catalogue. */
const ITEMS_PER_COMMIT = 500;
/** Records being catalogued at once, and their bytes (see RecordWindow). */
const RECORDS_IN_FLIGHT = 32;
const BYTES_IN_FLIGHT = 32 * 1024 * 1024;

/** What the files of one import share. */
export interface FileReading {
  archive: Archive;
  seen: SeenRecords;
  cataloguer: RecordCatalogue;
  index: TextIndex;
  progress: ImportProgressStore;
  /** Running totals over the import's files. */
  totals: { bytesTotal: number; bytesBefore: number; records: number; catalogued: number; problems: number; duplicates: number };
  report: (p: ImportProblem) => void;
  onProgress?: (p: ImportProgress) => void;
  onCommit?: ImportOptions['onCommit'];
  /** True once the import is to stop (pause) at the next record. */
  pausing: () => boolean;
}

/**
 * Imports one file's records from where `start` says its reading stopped: each new one copied into
 * a WARC file of the archive (made with the first) and catalogued; a record taken before (see
 * SeenRecords) is left out, a damaged one reported. Every ITEMS_PER_COMMIT items, and when pausing,
 * the records in flight are finished, their copies written and the text index flushed, then the
 * catalogue commits them with the file's progress, so that a killed import goes on from there.
 * `begin` is called, in the catalogue's transaction, before the first new record is catalogued;
 * `capture` is the capture the file's records go to, null before that. Returns the file's progress
 * as committed last: `done` unless the import paused.
 */
export async function readFile(
  r: FileReading,
  input: WarcInput,
  start: FileProgress,
  hooks: { begin: () => void; capture: () => number | null; newWarc: () => Promise<WarcCopy> },
): Promise<FileProgress> {
  const c = r.archive.catalogue;
  const t = r.totals;
  const p: FileProgress = { ...start };
  let out = p.warc === null ? null : await WarcCopy.resume(r.archive.warcDir, p.warc, p.warcBytes);
  let pending = 0;
  let last: number | null = p.lastMs;
  const window = new RecordWindow(RECORDS_IN_FLIGHT, BYTES_IN_FLIGHT);
  const report = (problem: ImportProblem) => {
    p.problems++;
    r.progress.keep(problem);
    r.report(problem);
  };
  /** Commits the records taken so far; reading goes on at `at`, after `skip` items there. */
  const commit = async (at: number, skip: number, done: boolean) => {
    await window.drain();
    if (done) await out?.close();
    else await out?.flush();
    r.index.flush();
    Object.assign(p, { at, skip, done, lastMs: last, warc: out?.name ?? null, warcBytes: out?.bytes ?? 0, capture: hooks.capture() });
    r.progress.save(p);
    c.sqlite.exec('COMMIT');
    r.onCommit?.({ records: t.records, file: input.label });
  };
  let itemAt = -1;
  let itemIndex = 0;
  c.sqlite.exec('BEGIN');
  try {
    for await (const item of readWarcRecords(input.path, start.at)) {
      // Items of one gzip member share its offset: an item's place is its offset and its index there.
      itemIndex = item.offset === itemAt ? itemIndex + 1 : 0;
      itemAt = item.offset;
      if (item.offset === start.at && itemIndex < start.skip) continue;
      if (r.pausing()) {
        await commit(item.offset, itemIndex, false);
        await out?.abandon();
        return p;
      }
      if (++pending > ITEMS_PER_COMMIT) {
        await commit(item.offset, itemIndex, false);
        c.sqlite.exec('BEGIN');
        pending = 1;
      }
      if (item.kind === 'damage') report({ file: input.label, offset: item.offset, why: item.why });
      else {
        const f = recordFacts(item.content);
        if (f === null) report({ file: input.label, offset: item.offset, why: 'a record whose WARC head cannot be read' });
        else if (!r.seen.firstTime(f, item.content, input.label)) {
          p.duplicates++;
          t.duplicates++;
        } else {
          hooks.begin();
          out ??= await hooks.newWarc();
          const place = await out.append(item.content, item.member);
          p.records++;
          t.records++;
          if (f.date !== null && (last === null || f.date.getTime() > last)) last = f.date.getTime();
          // A revisit reads its original's catalogue rows and record: those in flight are finished
          // first, and the records copied so far written out.
          if (f.type === 'revisit') {
            await window.drain();
            await out.flush();
          }
          const offset = item.offset;
          await window.add(r.cataloguer.urlOf(f), item.content.length, async () => {
            const taken = await r.cataloguer.take(f, place);
            if (taken.kind === 'catalogued') {
              p.catalogued++;
              t.catalogued++;
            }
            if (taken.kind === 'problem') report({ file: input.label, offset, why: taken.why });
          });
        }
      }
      r.onProgress?.({ phase: 'reading', done: t.bytesBefore + item.end, total: t.bytesTotal, records: t.records, damaged: t.problems, duplicates: t.duplicates });
    }
    await commit(input.bytes, 0, true);
  } catch (e) {
    await window.drain().catch(() => {});
    if (c.sqlite.inTransaction) c.sqlite.exec('ROLLBACK');
    await out?.abandon().catch(() => {});
    throw e;
  }
  await out?.publish();
  t.bytesBefore += input.bytes;
  return p;
}
