import type { Archive } from '../engine/store/archive.js';
import type { JobRecord } from './dataDir.js';
import { HostError } from './hostError.js';
import { openArchive } from './jobRules.js';

/** What holds a claimed archive: an export reads it, a page analysis writes into it. */
export type ClaimKind = 'exported' | 'analysed';

/**
 * Archives held by an export or a page analysis. While one is held, no crawl starts on it and the
 * job cannot be deleted; an analysis holds its archive writable, so other reads go through it.
 */
export class ArchiveClaims {
  /** Each held archive's job, with what holds it. */
  private readonly holders = new Map<string, ClaimKind>();
  /** The archive a page analysis holds (writable, so it holds the writer lock): queries go through it. */
  private readonly lent = new Map<string, Archive>();

  isClaimed(id: string): boolean {
    return this.holders.has(id);
  }

  /** Refuses when the job's archive is held. */
  assertFree(id: string): void {
    if (this.holders.has(id)) throw new HostError('conflict', `the archive is being ${this.holders.get(id)}`);
  }

  /** Opens and holds the job's archive until release is called. */
  claim(r: JobRecord, what: ClaimKind): { archive: Archive; release: () => void } {
    if (this.holders.has(r.id)) throw new HostError('conflict', `the archive is already being ${this.holders.get(r.id)}`);
    // An analysis writes its results into the catalogue; an export only reads, but needs the archive
    // to hold still: a crawl in another process would change its files under it.
    const archive = what === 'analysed' ? openArchive(r.archiveDir, true) : openArchive(r.archiveDir, false, true);
    this.holders.set(r.id, what);
    if (what === 'analysed') this.lent.set(r.id, archive);
    return {
      archive,
      release: () => {
        this.lent.delete(r.id);
        archive.close();
        this.holders.delete(r.id);
      },
    };
  }

  /** Runs fn on the job's archive: the one an analysis holds, else one opened for the call. */
  withArchive<T>(r: JobRecord, writable: boolean, fn: (a: Archive) => T): T {
    const held = this.lent.get(r.id);
    if (held) return fn(held);
    const a = openArchive(r.archiveDir, writable);
    try {
      return fn(a);
    } finally {
      a.close();
    }
  }
}
