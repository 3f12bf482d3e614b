import { existsSync } from 'node:fs';
import type { Archive } from '../store/archive.js';

/**
 * What the analysis asks of an archive: where a page's copy is, which URLs a mirror file stands
 * for, and whether a file is in the offline copy. Queries of its own over the catalogue, as the
 * QA report keeps.
 */
export class ArchivedFiles {
  private readonly pathOf;
  private readonly urlsAt;

  constructor(private readonly archive: Archive) {
    const db = archive.catalogue.sqlite;
    this.pathOf = db.prepare(`SELECT local_path AS p FROM urls WHERE url = ? AND state = 'archived'`);
    // A redirect's row holds the file its chain ends at: the copy serving that file serves the redirect too.
    this.urlsAt = db.prepare(`SELECT url FROM urls WHERE local_path = ? AND state IN ('archived', 'redirect')`);
  }

  /** The mirror path of an archived URL's copy, or null. */
  localPath(url: string): string | null {
    return (this.pathOf.get(url) as { p: string | null } | undefined)?.p ?? null;
  }

  /** Every URL whose copy (or redirect's end) is the mirror file `localPath`. */
  urlsAtPath(localPath: string): string[] {
    return (this.urlsAt.all(localPath) as { url: string }[]).map((r) => r.url);
  }

  exists(localPath: string): boolean {
    try {
      return existsSync(this.archive.mirror.absolutePath(localPath));
    } catch {
      // A path that would leave the mirror is no file of it.
      return false;
    }
  }
}
