import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { HARVEST_VERSION } from '../../../shared/job.js';
import { originalKeys, parseWarcHead, recordKeys, type Field } from '../warc/fields.js';
import { scanGzipMembers } from '../warc/gzipMembers.js';
import { newRecordId } from '../warc/record.js';
import { warcinfoRecord } from '../warc/records.js';
import { ExportUsageError } from './errors.js';
import { createOutput, finish, writeChunk } from './lines.js';
import type { Archive } from '../store/archive.js';
import { finishedWarcFiles, type FinishedWarc } from './warcFiles.js';

/** A capture's number and when it started (ISO 8601), as the catalogue lists them. */
export interface CaptureStart {
  id: number;
  startedAt: string;
}

/**
 * Which capture wrote each WARC file. A crawl run opens its own files and finishes them when it
 * stops, and a capture starts before its first run opens one, so a file belongs to the last capture
 * that had started when the file was created (the time in its name, see warc/fileNames.ts). A file
 * older than every capture (or named otherwise) is the first capture's.
 */
export function captureOfWarcs(warcs: readonly FinishedWarc[], captures: readonly CaptureStart[]): Map<string, number> {
  const starts = [...captures].map((c) => ({ id: c.id, ms: Date.parse(c.startedAt) })).sort((a, b) => a.ms - b.ms || a.id - b.id);
  const first = starts[0]?.id ?? 1;
  const out = new Map<string, number>();
  for (const w of warcs) {
    const created = createdMs(w.name);
    let id = first;
    if (created !== null) for (const s of starts) if (s.ms <= created) id = s.id;
    out.set(w.name, id);
  }
  return out;
}

/** The creation time in `<prefix>-<yyyyMMddHHmmssSSS>-<serial>.warc.gz`, in ms; null when it has none. */
function createdMs(name: string): number | null {
  const m = /-(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})-\d{5,}\.warc\.gz$/.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/** Throws ExportUsageError naming the captures there are when `capture` is not one of them. */
export function requireCapture<C extends { id: number }>(captures: readonly C[], capture: number): C {
  const found = captures.find((c) => c.id === capture);
  if (found === undefined) {
    throw new ExportUsageError(`the archive has no capture ${capture} (it has ${captures.map((c) => c.id).join(', ') || 'none'}; see harvest captures)`);
  }
  return found;
}

export interface CaptureSelection {
  /** The file of originals (when any is needed), then the capture's own WARC files, in that order. */
  warcs: FinishedWarc[];
  /** How many response records were copied from earlier captures for the capture's revisits. */
  originals: number;
}

/**
 * One capture's WARC files for an export: its own files as they are, and a file written to `workDir`
 * holding the response records of earlier captures that its revisit records point at (each gzip
 * member copied byte for byte, after a warcinfo record of its own, and each file's copies after
 * that file's warcinfo record, which they name), so every revisit in the export has its payload
 * and every record's references resolve inside the export. Throws ExportUsageError for a capture the archive does not have, or when an
 * original is nowhere in the WARC files.
 */
export async function selectCapture(
  warcs: readonly FinishedWarc[],
  captures: readonly CaptureStart[],
  capture: number,
  workDir: string,
  signal?: AbortSignal,
): Promise<CaptureSelection> {
  requireCapture(captures, capture);
  const owner = captureOfWarcs(warcs, captures);
  const own = warcs.filter((w) => owner.get(w.name) === capture);
  if (own.length === 0) throw new ExportUsageError(`capture ${capture} has no WARC files (was it crawled with --no-warc?)`);
  // Originals wanted, each under every key it may be found by; a revisit of a record in the capture itself needs nothing.
  const wanted = new Map<string, string>();
  const ownKeys = new Set<string>();
  for (const w of own) {
    await eachHead(w, signal, (head) => {
      for (const k of recordKeys(head)) ownKeys.add(k);
      if (head.get('warc-type') !== 'revisit') return;
      const keys = originalKeys(head);
      for (const k of keys) wanted.set(k, keys[0]!);
    });
  }
  for (const k of ownKeys) wanted.delete(k);
  const missing = new Set(wanted.values());
  if (missing.size === 0) return { warcs: own, originals: 0 };

  const name = `harvest-capture-${capture}-originals.warc.gz`;
  const file = path.join(workDir, name);
  const out = createOutput(file);
  let originals = 0;
  try {
    const info: Field[] = [
      ['software', `Harvest/${HARVEST_VERSION}`],
      ['description', `response records of earlier captures that capture ${capture}'s revisit records refer to`],
    ];
    await writeChunk(out, gzipSync(warcinfoRecord(newRecordId(), new Date(), name, info)));
    for (const w of warcs) {
      if (missing.size === 0) break;
      if ((owner.get(w.name) ?? 0) >= capture) continue;
      const fh = await open(w.path, 'r');
      try {
        const copies: { offset: number; length: number }[] = [];
        const found: { warcinfo?: { offset: number; length: number } } = {};
        await scanGzipMembers(fh, (m) => {
          signal?.throwIfAborted();
          const head = parseWarcHead(m.head.toString('latin1'));
          if (head?.get('warc-type') === 'warcinfo') found.warcinfo ??= { offset: m.offset, length: m.length };
          if (head === null || head.get('warc-type') !== 'response') return;
          const hit = recordKeys(head).map((k) => wanted.get(k)).find((k) => k !== undefined && missing.has(k));
          if (hit === undefined) return;
          missing.delete(hit);
          copies.push({ offset: m.offset, length: m.length });
        });
        // The copies name their file's warcinfo record (WARC-Warcinfo-ID): it comes with them, so the package stands alone.
        if (copies.length > 0 && found.warcinfo) copies.unshift(found.warcinfo);
        for (const c of copies) {
          const buf = Buffer.alloc(c.length);
          await fh.read(buf, 0, c.length, c.offset);
          await writeChunk(out, buf);
          if (c !== found.warcinfo) originals++;
        }
      } finally {
        await fh.close();
      }
    }
  } finally {
    await finish(out);
  }
  if (missing.size > 0) {
    throw new ExportUsageError(
      `capture ${capture} has ${missing.size} revisit record(s) whose original is in none of the archive's WARC files (first: ${[...missing][0]}); nothing was exported`,
    );
  }
  // Originals first: the index then knows an original's status before the revisits that refer to it (see cdxj.ts).
  return { warcs: [{ name, path: file, bytes: (await stat(file)).size }, ...own], originals };
}

async function eachHead(w: FinishedWarc, signal: AbortSignal | undefined, fn: (head: Map<string, string>) => void): Promise<void> {
  const fh = await open(w.path, 'r');
  try {
    await scanGzipMembers(fh, (m) => {
      signal?.throwIfAborted();
      const head = parseWarcHead(m.head.toString('latin1'));
      if (head !== null) fn(head);
    });
  } finally {
    await fh.close();
  }
}

/** The WARC files an export carries: every finished one, or with `capture` that capture's (see selectCapture). */
export async function exportedWarcs(archive: Archive, capture: number | undefined, workDir: string, signal?: AbortSignal): Promise<FinishedWarc[]> {
  const all = await finishedWarcFiles(archive.warcDir);
  if (capture === undefined) return all;
  return (await selectCapture(all, archive.catalogue.listCaptures(), capture, workDir, signal)).warcs;
}
