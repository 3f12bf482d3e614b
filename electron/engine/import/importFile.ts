import type { Archive } from '../store/archive.js';
import type { ImportedFile, ImportProblem, ImportProgress } from './importTypes.js';
import type { RecordCatalogue } from './recordCatalogue.js';
import { recordFacts } from './recordFacts.js';
import { RecordWindow } from './recordWindow.js';
import type { SeenRecords } from './seenRecords.js';
import type { WarcInput } from './sources.js';
import type { WarcCopy } from './warcCopy.js';
import { readWarcRecords } from './warcRecords.js';

/** Records committed to the catalogue in one transaction. */
const RECORDS_PER_COMMIT = 500;
/** Records being catalogued at once, and their bytes (see RecordWindow). */
const RECORDS_IN_FLIGHT = 32;
const BYTES_IN_FLIGHT = 32 * 1024 * 1024;

/** What the files of one import share. */
export interface FileReading {
  archive: Archive;
  seen: SeenRecords;
  cataloguer: RecordCatalogue;
  /** Running totals over the import's files. */
  totals: { bytesTotal: number; bytesBefore: number; records: number; catalogued: number; problems: number; duplicates: number };
  report: (p: ImportProblem) => void;
  onProgress?: (p: ImportProgress) => void;
}

/**
 * Imports one file's records: each new one copied into a WARC file of the archive (made with the
 * first) and catalogued; a record taken before (see SeenRecords) is left out, a damaged one reported.
 * `begin` is called, in the catalogue's transaction, before the first new record is catalogued.
 */
export async function readFile(
  r: FileReading,
  input: WarcInput,
  hooks: { begin: () => void; newWarc: () => Promise<WarcCopy> },
): Promise<{ source: Omit<ImportedFile, 'capture'>; last: Date | null }> {
  const c = r.archive.catalogue;
  const t = r.totals;
  let out: WarcCopy | null = null;
  let records = 0;
  let duplicates = 0;
  let pending = 0;
  let last: Date | null = null;
  const window = new RecordWindow(RECORDS_IN_FLIGHT, BYTES_IN_FLIGHT);
  c.sqlite.exec('BEGIN');
  try {
    for await (const item of readWarcRecords(input.path)) {
      if (item.kind === 'damage') r.report({ file: input.label, offset: item.offset, why: item.why });
      else {
        const f = recordFacts(item.content);
        if (f === null) r.report({ file: input.label, offset: item.offset, why: 'a record whose WARC head cannot be read' });
        else if (!r.seen.firstTime(f, item.content, input.label)) {
          duplicates++;
          t.duplicates++;
        } else {
          hooks.begin();
          out ??= await hooks.newWarc();
          const place = await out.append(item.content, item.member);
          records++;
          t.records++;
          if (f.date !== null && (last === null || f.date > last)) last = f.date;
          // A revisit reads its original's catalogue rows and record: those in flight are finished
          // first, and the records copied so far written out.
          if (f.type === 'revisit') {
            await window.drain();
            await out.flush();
          }
          const offset = item.offset;
          await window.add(r.cataloguer.urlOf(f), item.content.length, async () => {
            const taken = await r.cataloguer.take(f, place);
            if (taken.kind === 'catalogued') t.catalogued++;
            if (taken.kind === 'problem') r.report({ file: input.label, offset, why: taken.why });
          });
          if (++pending >= RECORDS_PER_COMMIT) {
            c.sqlite.exec('COMMIT; BEGIN');
            pending = 0;
          }
        }
      }
      r.onProgress?.({ phase: 'reading', done: t.bytesBefore + item.end, total: t.bytesTotal, records: t.records, damaged: t.problems, duplicates: t.duplicates });
    }
    await window.drain();
    c.sqlite.exec('COMMIT');
  } catch (e) {
    await window.drain().catch(() => {});
    if (c.sqlite.inTransaction) c.sqlite.exec('ROLLBACK');
    throw e;
  }
  await out?.finish();
  t.bytesBefore += input.bytes;
  return { source: { file: input.label, bytes: input.bytes, records, duplicates, warc: out?.name ?? null }, last };
}
