import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Archive } from '../store/archive.js';
import type { Catalogue } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween } from '../url/localPath.js';
import { documentKind, finalTarget, parseDocument, ReferenceMemo, renderDocument, unpackOriginal } from './documents.js';

export const ENTRY_PAGE = 'index.html';

/**
 * The rewrite pass gives the event loop a turn at least this often, so progress ticks and pause
 * requests get through while it runs.
 */
const SLICE_MS = 20;

/** URL ids whose documents are checked in one query. */
const CHECK_IDS = 512;

/**
 * Told how far the rewrite pass is, in URL ids checked of all ids: at its start, after each
 * slice, and at its end.
 */
export type FinalizeProgress = (done: number, total: number) => void;

/**
 * Brings the mirror to its final form once every URL has an outcome: redirects point at the file
 * their chain ends at, and every saved document whose references were guessed while their targets
 * were still queued is rewritten from its original bytes where a guess turned out wrong (a 404,
 * a redirect, another content type). Returns how many documents were rewritten.
 */
export async function finalizeMirror(archive: Archive, onProgress: FinalizeProgress = () => {}): Promise<number> {
  const c = archive.catalogue;
  c.transaction(() => markRedirectLoops(c, c.resolveRedirectChains()));
  const total = c.maxUrlId();
  onProgress(0, total);
  const memo = new ReferenceMemo();
  let rewritten = 0;
  let sliceStart = Date.now();
  const nextSlice = async (done: number): Promise<void> => {
    if (Date.now() - sliceStart < SLICE_MS) return;
    await nextTurn();
    onProgress(done, total);
    sliceStart = Date.now();
  };
  // Rewriting a document changes only its own links, so ranges checked later are unaffected.
  for (let from = 1; from <= total; from += CHECK_IDS) {
    const to = Math.min(total, from + CHECK_IDS - 1);
    for (const id of c.staleDocumentIds(from, to)) {
      await rewriteDocument(archive, id, memo);
      rewritten++;
      await nextSlice(id);
    }
    await nextSlice(to);
  }
  onProgress(total, total);
  await writeEntryPage(archive);
  return rewritten;
}

function markRedirectLoops(c: Catalogue, unresolved: { id: number; redirect_to_id: number | null }[]): void {
  const next = new Map(unresolved.map((r) => [r.id, r.redirect_to_id]));
  for (const start of next.keys()) {
    const seen = new Set<number>();
    let cur: number | null | undefined = start;
    while (cur !== null && cur !== undefined && !seen.has(cur)) {
      seen.add(cur);
      cur = next.get(cur);
    }
    if (cur === start) c.markError(start, 'redirect loop');
  }
}

async function rewriteDocument(archive: Archive, id: number, memo: ReferenceMemo): Promise<void> {
  const c = archive.catalogue;
  const row = c.get(id);
  const original = c.getOriginal(id);
  if (!row || row.state !== 'archived' || row.local_path === null || !original) return;
  const kind = documentKind(row.content_type, row.url);
  if (kind === 'other') return;
  const doc = parseDocument(kind, unpackOriginal(original.body), row.url, row.content_type);
  const rendered = renderDocument(
    doc,
    row.local_path,
    memo,
    (_link, canonical) => c.lookup(canonical),
    (target) => finalTarget(target),
  );
  await archive.mirror.write(row.local_path, rendered.data);
  c.transaction(() => c.replaceLinks(id, rendered.links));
}

/** The mirror's front door: a page linking to each seed's saved copy. */
export async function writeEntryPage(archive: Archive): Promise<void> {
  const c = archive.catalogue;
  const items = archive.job.seeds.map((seed) => {
    const canonical = canonicalize(seed);
    const row = canonical === null ? undefined : c.lookup(canonical);
    const target = row ? finalTarget(row) : null;
    const href = target === null ? seed : hrefBetween(ENTRY_PAGE, target);
    const note = target === null ? ' (not archived)' : '';
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(seed)}</a>${note}</li>`;
  });
  const title = escapeHtml(archive.job.name);
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
</head>
<body>
<h1>${title}</h1>
<p>Offline copy made by Harvest; harvest started ${escapeHtml(c.getMeta('started_at') ?? 'not yet')}.</p>
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
  await archive.mirror.write(ENTRY_PAGE, html);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
