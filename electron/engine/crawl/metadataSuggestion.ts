import type { MetadataSuggestion } from '../../../shared/metadata.js';
import type { Archive } from '../store/archive.js';
import { canonicalize } from '../url/canonical.js';
import { finalTarget } from './documents.js';

/**
 * What the metadata editor offers before the archivist has written anything: the title of the first
 * seed's archived page (after its redirects), and the crawl's dates as an EDTF date, one day
 * (`2026-05-14`) or the days it ran (`2026-05-14/2026-05-16`); empty where the crawl has none.
 */
export function suggestMetadata(archive: Archive): MetadataSuggestion {
  const c = archive.catalogue;
  let title = '';
  for (const seed of archive.job.seeds) {
    const canonical = canonicalize(seed);
    const row = canonical === null ? undefined : c.lookup(canonical);
    const target = row ? finalTarget(row) : null;
    const page = target === null ? undefined : c.pageAt(target);
    if (page?.title) {
      title = page.title.trim();
      break;
    }
  }
  const day = (iso: string | null): string => (iso === null ? '' : iso.slice(0, 10));
  const start = day(c.getMeta('started_at'));
  const end = day(c.getMeta('finished_at'));
  const date = start === '' ? '' : end === '' || end === start ? start : `${start}/${end}`;
  return { title, date };
}
