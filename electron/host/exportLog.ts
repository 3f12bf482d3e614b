import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ExportRecord } from '../../shared/appViews.js';
import { EXPORT_FORMATS } from '../../shared/metadata.js';
import { verify, VerifyInputError } from '../engine/export/verify.js';
import { plural } from '../../shared/format.js';

const FILE = 'exports.json';

const EntrySchema = z.object({
  exportId: z.string(),
  jobId: z.string(),
  format: z.enum(EXPORT_FORMATS),
  outPath: z.string(),
  finishedAt: z.string(),
  bytes: z.number(),
  files: z.number(),
  sha256: z.string().nullable(),
  verified: z.object({ ok: z.boolean(), at: z.string(), detail: z.string() }).nullable(),
});
type Entry = z.infer<typeof EntrySchema>;
const LogSchema = z.object({ version: z.literal(1), exports: z.array(EntrySchema) });

/**
 * The finished exports the host has written, kept in the data folder (exports.json, replaced
 * through a rename), so the library lists each archive's exports with their size and fixity.
 */
export class ExportLog {
  private readonly entries: Entry[];

  constructor(private readonly dataDir: string) {
    const file = path.join(dataDir, FILE);
    let entries: Entry[] = [];
    try {
      if (existsSync(file)) entries = LogSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).exports;
    } catch {
      // A damaged list is started afresh: the exports themselves are untouched.
      entries = [];
    }
    this.entries = entries;
  }

  /** Records a finished export; a single file's sha256 is taken now, for later fixity checks. */
  async add(e: Omit<Entry, 'sha256' | 'verified' | 'finishedAt'>): Promise<void> {
    const sha256 = isFile(e.outPath) ? await sha256Of(e.outPath) : null;
    this.entries.push({ ...e, finishedAt: new Date().toISOString(), sha256, verified: null });
    this.save();
  }

  list(jobId: string, downloadPath: (exportId: string) => string | null): ExportRecord[] {
    return this.entries
      .filter((e) => e.jobId === jobId)
      .map((e) => this.record(e, downloadPath))
      .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt));
  }

  /** The folders exports were written into. */
  outFolders(): string[] {
    return [...new Set(this.entries.map((e) => path.dirname(e.outPath)))];
  }

  get(exportId: string): Entry | undefined {
    return this.entries.find((e) => e.exportId === exportId);
  }

  /** Re-hashes the export: a bag or WACZ against its own manifests, a WARC or ZIP against the sha256 taken when written. */
  async verify(exportId: string, downloadPath: (exportId: string) => string | null): Promise<ExportRecord | null> {
    const e = this.get(exportId);
    if (!e) return null;
    e.verified = { ok: false, at: new Date().toISOString(), detail: await check(e) };
    e.verified.ok = e.verified.detail.startsWith('valid');
    this.save();
    return this.record(e, downloadPath);
  }

  private record(e: Entry, downloadPath: (exportId: string) => string | null): ExportRecord {
    const present = existsSync(e.outPath);
    // A bag folder downloads too, as a ZIP of it (electron/host/downloads.ts).
    return { ...e, present, downloadPath: present ? downloadPath(e.exportId) : null };
  }

  private save(): void {
    const file = path.join(this.dataDir, FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, exports: this.entries }, null, 1));
    renameSync(tmp, file);
  }
}

async function check(e: Entry): Promise<string> {
  if (!existsSync(e.outPath)) return `missing: ${e.outPath} is no longer there`;
  if (e.format === 'wacz' || e.format === 'bagit') {
    try {
      const report = await verify(e.outPath);
      return report.ok
        ? `valid: ${plural(report.files, 'file')} match the manifests`
        : `invalid: ${plural(report.problems.length, 'problem')}, first: ${report.problems[0]?.kind} ${report.problems[0]?.path}`;
    } catch (err) {
      if (err instanceof VerifyInputError) return `invalid: ${err.message}`;
      throw err;
    }
  }
  if (e.sha256 === null) return 'invalid: no checksum was taken when it was written';
  return (await sha256Of(e.outPath)) === e.sha256 ? 'valid: the sha256 matches the one taken when it was written' : 'invalid: the file changed since it was written (sha256 differs)';
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
