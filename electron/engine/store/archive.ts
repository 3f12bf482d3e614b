import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HARVEST_VERSION, parseJob, type Job } from '../../../shared/job.js';
import type { CrawlState } from '../../../shared/crawl.js';
import { ARCHIVE_MARKER, CATALOGUE_FILE, MIRROR_DIR, newArchiveFolderProblem, TMP_DIR, WARC_DIR, WRITE_PROBE_PREFIX } from './archiveFolder.js';
import { linksInArchive, linksRefusal } from './archiveLinks.js';
import { ArchiveInUseError, Catalogue } from './catalogue.js';
import { Mirror } from './mirror.js';
import { checkIdentity, identityOf, type FolderIdentity } from './folderIdentity.js';

/** The catalogue, the offline copy, the WARC files, and the partial writes renamed into the mirror when complete. */
export { CATALOGUE_FILE, MIRROR_DIR, TMP_DIR, WARC_DIR } from './archiveFolder.js';

/** Input the user can fix: bad folder, wrong archive, and the like. The CLI prints it as one line. */
export class ArchiveUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveUsageError';
  }
}

/** An archive folder: the SQLite catalogue beside the browsable mirror. */
export class Archive {
  /** Opened for writing: the folder as opened, and a handle on it that follows it if it moves. */
  private held: { identity: FolderIdentity; fd: number | undefined } | null = null;

  private constructor(
    readonly dir: string,
    readonly catalogue: Catalogue,
    readonly mirror: Mirror,
    readonly job: Job,
  ) {}

  private hold(): this {
    const identity = identityOf(this.dir);
    if (identity === null) return this;
    let fd: number | undefined;
    try {
      fd = openSync(this.dir, 'r');
    } catch {
      // A folder can't be opened as a file everywhere (Windows): the identity check alone then.
    }
    this.held = { identity, fd };
    return this;
  }

  /**
   * Throws ArchiveMovedError (saying where it went, on Linux) if the folder opened for writing is no
   * longer at its path; a crawl checks at each progress tick.
   */
  checkFolder(): void {
    if (this.held !== null) checkIdentity(this.dir, this.held.identity, this.held.fd);
  }

  /**
   * Starts a new archive in `dir`: created if missing, else it must be empty or an archive folder
   * whose creation was interrupted; never a system or home folder (see archiveFolder.ts).
   */
  static create(dir: string, job: Job): Archive {
    const abs = path.resolve(dir);
    const problem = newArchiveFolderProblem(abs);
    if (problem) throw new ArchiveUsageError(problem);
    ensureWritableDir(abs);
    markAsArchive(abs);
    const file = path.join(abs, CATALOGUE_FILE);
    const catalogue = Catalogue.open(file);
    // A catalogue without a job is one whose creation was interrupted: it holds nothing to keep.
    if (catalogue.getMeta('job') !== null) {
      catalogue.close();
      throw new ArchiveUsageError(`${abs} already holds an archive; use 'harvest resume ${dir}' to continue it`);
    }
    catalogue.transaction(() => {
      catalogue.setMeta('job', JSON.stringify(job));
      catalogue.setMeta('created_at', new Date().toISOString());
      catalogue.setMeta('tool_version', HARVEST_VERSION);
      catalogue.setMeta('state', 'paused' satisfies CrawlState);
      // An archivist's choice to ignore robots.txt stays on the record of the archive.
      catalogue.setMeta('robots_policy', job.politeness.respectRobots ? 'obeyed' : 'ignored');
    });
    mkdirSync(path.join(abs, MIRROR_DIR), { recursive: true });
    return new Archive(abs, catalogue, mirrorOf(abs, { writable: true }), job).hold();
  }

  /**
   * Opens an existing archive for writing (resume), or read-only, which works while another process
   * writes it; `idle` refuses that (ArchiveInUseError), for readers that need the whole archive to
   * hold still, as an export does.
   */
  static open(dir: string, opts: { readonly?: boolean; idle?: boolean } = {}): Archive {
    const abs = path.resolve(dir);
    const file = path.join(abs, CATALOGUE_FILE);
    if (!existsSync(file)) throw new ArchiveUsageError(`${abs} is not a Harvest archive (no ${CATALOGUE_FILE})`);
    const links = linksInArchive(abs);
    if (links.length > 0) throw new ArchiveUsageError(linksRefusal(abs, links));
    if (!opts.readonly) ensureWritableDir(abs);
    if (opts.readonly && opts.idle && Catalogue.isBeingWritten(file)) throw new ArchiveInUseError(file);
    const catalogue = Catalogue.open(file, { readonly: opts.readonly ?? false });
    const raw = catalogue.getMeta('job');
    if (raw === null) {
      catalogue.close();
      throw new ArchiveUsageError(`${abs} was never started (its creation was interrupted); run 'harvest crawl' again`);
    }
    const job = parseJob(JSON.parse(raw));
    const archive = new Archive(abs, catalogue, mirrorOf(abs, { writable: !opts.readonly }), job);
    return opts.readonly ? archive : archive.hold();
  }

  /**
   * Starts the next capture of the job (a re-crawl), once the last one has finished; the crawl that
   * runs it is resumed like any other. Returns its number.
   */
  beginCapture(): number {
    const state = this.catalogue.getMeta('state');
    if (state !== ('finished' satisfies CrawlState)) {
      throw new ArchiveUsageError(
        `capture ${this.catalogue.currentCapture()} of ${this.dir} is ${state ?? 'not started'}, not finished; continue it with 'harvest resume ${this.dir}' first`,
      );
    }
    return this.catalogue.beginCapture(new Date());
  }

  get warcDir(): string {
    return path.join(this.dir, WARC_DIR);
  }

  close(): void {
    this.catalogue.close();
    if (this.held?.fd !== undefined) closeSync(this.held.fd);
    this.held = null;
  }
}

function mirrorOf(abs: string, opts: { writable: boolean }): Mirror {
  const mirror = new Mirror(path.join(abs, MIRROR_DIR), path.join(abs, TMP_DIR));
  if (opts.writable) mirror.discardPartialWrites();
  return mirror;
}

/** The marker goes in before anything else; one already there (an interrupted creation) is kept. */
function markAsArchive(abs: string): void {
  try {
    const fd = openSync(path.join(abs, ARCHIVE_MARKER), 'wx');
    try {
      writeFileSync(fd, 'This folder is a Harvest archive: Harvest writes here and may delete what it made.\n');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new ArchiveUsageError(`cannot write in ${abs}: ${(e as Error).message}`);
  }
}

function ensureWritableDir(abs: string): void {
  try {
    mkdirSync(abs, { recursive: true });
  } catch (e) {
    throw new ArchiveUsageError(`cannot create folder ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!statSync(abs).isDirectory()) throw new ArchiveUsageError(`${abs} is not a folder`);
  // access() says yes to root on a read-only mount, so also prove a write.
  const probe = path.join(abs, `${WRITE_PROBE_PREFIX}${process.pid}`);
  try {
    accessSync(abs, constants.W_OK);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    throw new ArchiveUsageError(`folder ${abs} is not writable (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
