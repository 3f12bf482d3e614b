import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Archive } from '../store/archive.js';
import type { PageRow } from '../store/catalogue.js';
import { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { finish, writeChunk } from './lines.js';

export interface MainPage {
  url: string;
  ts: string;
}

/**
 * Writes `pages/pages.jsonl` (WACZ's json-pages-1.0): a header line, then the seeds, then every other
 * archived HTML page, each with url, title and ts, and its text unless `text` is false. Streamed from the catalogue. Returns the first
 * seed, the archive's main page, when it was fetched.
 */
export async function writePages(archive: Archive, outFile: string, opts: { text?: boolean } = {}): Promise<MainPage | null> {
  const c = archive.catalogue;
  const out = createWriteStream(outFile);
  // Each page's visible text, as Browsertrix writes it, from the search index (when it has one).
  const index = opts.text === false ? null : TextIndex.openReadonly(archive.dir);
  const line = (p: PageRow): string => {
    const text = index?.textOf(p.url) ?? null;
    return JSON.stringify({ id: randomUUID(), url: p.url, ts: p.fetchedAt, ...(p.title ? { title: p.title } : {}), ...(text !== null && { text }) }) + '\n';
  };
  let main: MainPage | null = null;
  try {
    await writeChunk(out, JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }) + '\n');
    const seeds = new Set<string>();
    for (const seed of archive.job.seeds) {
      const url = canonicalize(seed);
      if (url === null || seeds.has(url)) continue;
      seeds.add(url);
      const page = c.pageOf(url);
      if (page === null) continue;
      main ??= { url: page.url, ts: page.fetchedAt };
      await writeChunk(out, line(page));
    }
    for (const page of c.iterateHtmlPages()) {
      if (!seeds.has(page.url)) await writeChunk(out, line(page));
    }
  } finally {
    index?.close();
    await finish(out);
  }
  return main;
}
