import path from 'node:path';
import type { UrlDetail, UrlFacts } from '../../shared/urlDetail.js';
import { WARC_DIR } from '../engine/store/archive.js';
import { canonicalize } from '../engine/url/canonical.js';
import { findRecordView, readRecordView } from '../engine/warc/recordView.js';

/** How much of the WARC files a detail request may read looking for a record the catalogue can't place. */
export const WARC_SCAN_BUDGET_BYTES = 256 * 1024 * 1024;

/** States whose URL was answered over HTTP, so a WARC record may hold the exchange. */
const RECORDED = new Set(['archived', 'redirect', 'http-error']);

/**
 * A URL's detail: the catalogue's facts (asked of the crawl worker while the job runs) and the
 * headers of its WARC record, read here from the files. The URL is canonicalised as the crawl did,
 * so an address typed or clicked as it appears on the web finds its row.
 */
export async function urlDetailOf(
  archiveDir: string,
  url: string,
  facts: (canonical: string) => Promise<UrlFacts | null>,
  scanBudget = WARC_SCAN_BUDGET_BYTES,
): Promise<UrlDetail | null> {
  const canonical = canonicalize(url) ?? url;
  const f = await facts(canonical);
  if (!f) return null;
  const dir = path.join(archiveDir, WARC_DIR);
  if (f.warcPlace) {
    const view = await readRecordView(dir, f.warcPlace);
    return { ...f, warc: view, warcNote: view ? null : `the record at ${f.warcPlace.file}:${f.warcPlace.offset} could not be read` };
  }
  if (!RECORDED.has(f.record.state)) {
    const why = f.record.state === 'failed' ? 'no answer was received, so nothing was recorded' : `nothing is recorded for a ${f.record.state} URL`;
    return { ...f, warc: null, warcNote: why };
  }
  const found = await findRecordView(dir, f.record.url, scanBudget);
  const note = found.view
    ? null
    : found.complete
      ? 'no WARC record of this URL (WARC recording may have been off)'
      : `not found in the newest ${Math.round(scanBudget / 1e6)} MB of WARC files`;
  return { ...f, warc: found.view, warcNote: note };
}
