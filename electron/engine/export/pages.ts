import { randomUUID } from 'node:crypto';
import type { Archive } from '../store/archive.js';
import type { CaptureSummary } from '../../../shared/captures.js';
import type { CapturePage } from '../store/catalogue.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { warcDate } from '../warc/record.js';
import { createOutput, finish, writeChunk } from './lines.js';
import type { RecordTimes } from './recordTimes.js';

export interface MainPage {
  url: string;
  ts: string;
}

/**
 * Writes `pages/pages.jsonl` (WACZ's json-pages-1.0): a header line, then per capture (every one, or
 * only `capture`) its seeds and then every other HTML page it fetched, each with url, title and ts
 * (that capture's WARC-Date, so a page captured twice is listed twice), and its text as of that
 * capture unless `text` is false. Streamed from the catalogue; with `times`, each page is dated by
 * its own record in the index. Returns the archive's main page: the
 * first seed of the last capture listed, when it was fetched.
 */
export async function writePages(
  archive: Archive,
  outFile: string,
  opts: { text?: boolean; capture?: number; times?: RecordTimes | null } = {},
): Promise<MainPage | null> {
  const c = archive.catalogue;
  const tsOf = pageTimes(c.listCaptures(), opts.times ?? null);
  const out = createOutput(outFile);
  // Each page's visible text, as Browsertrix writes it, from the search index (when it has one).
  const index = opts.text === false ? null : TextIndex.openReadonly(archive.dir);
  const line = (p: CapturePage): string => {
    const text = index?.textOf(p.url, p.capture) ?? null;
    return JSON.stringify({ id: randomUUID(), url: p.url, ts: tsOf(p), ...(p.title ? { title: p.title } : {}), ...(text !== null && { text }) }) + '\n';
  };
  const seeds = [...new Set(archive.job.seeds.map((s) => canonicalize(s)).filter((u): u is string => u !== null))];
  const seedSet = new Set(seeds);
  let main: MainPage | null = null;
  try {
    await writeChunk(out, JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }) + '\n');
    // Two passes, so memory holds only the seeds' pages: the seeds of each capture, then the rest.
    const seedPages: CapturePage[] = [];
    for (const page of c.iterateCapturePages(opts.capture)) if (seedSet.has(page.url)) seedPages.push(page);
    seedPages.sort((a, b) => a.capture - b.capture || seeds.indexOf(a.url) - seeds.indexOf(b.url));
    for (const page of seedPages) await writeChunk(out, line(page));
    const first = seedPages.find((p) => p.capture === seedPages.at(-1)!.capture);
    if (first) main = { url: first.url, ts: tsOf(first) };
    for (const page of c.iterateCapturePages(opts.capture)) if (!seedSet.has(page.url)) await writeChunk(out, line(page));
  } finally {
    index?.close();
    await finish(out);
  }
  return main;
}

/**
 * A page's time as its WARC record's WARC-Date has it (whole seconds): replay tools look the page up
 * in the index by this time. A crawl dates the capture by its request's start, as the record; an
 * archive crawled before that dated it when its outcome was saved, up to a few seconds later, so
 * with the export's record times the page takes the time of its own record in that capture's span.
 */
function pageTimes(captures: readonly CaptureSummary[], times: RecordTimes | null): (p: CapturePage) => string {
  const starts = new Map(captures.map((c) => [c.id, fourteen(c.startedAt)]));
  return (p) => {
    const at = fourteen(p.fetchedAt);
    const own = times?.timeOf(p.url, at, starts.get(p.capture) ?? '', starts.get(p.capture + 1) ?? null) ?? null;
    return own === null ? warcDate(new Date(p.fetchedAt)) : `${own.slice(0, 4)}-${own.slice(4, 6)}-${own.slice(6, 8)}T${own.slice(8, 10)}:${own.slice(10, 12)}:${own.slice(12, 14)}Z`;
  };
}

/** An ISO 8601 time as the index's 14 digits. */
export function fourteen(iso: string): string {
  return warcDate(new Date(iso)).replace(/[-:TZ]/g, '');
}
