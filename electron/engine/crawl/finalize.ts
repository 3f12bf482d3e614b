import type { Archive } from '../store/archive.js';
import type { Catalogue } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween } from '../url/localPath.js';
import { documentKind, finalTarget, parseDocument, renderDocument, unpackOriginal } from './documents.js';

export const ENTRY_PAGE = 'index.html';

/**
 * Brings the mirror to its final form once every URL has an outcome: redirects point at the file
 * their chain ends at, and every saved document whose references were guessed while their targets
 * were still queued is rewritten from its original bytes where a guess turned out wrong (a 404,
 * a redirect, another content type). Returns how many documents were rewritten.
 */
export async function finalizeMirror(archive: Archive): Promise<number> {
  const c = archive.catalogue;
  resolveRedirectChains(c);
  const stale = (
    c.db
      .prepare(
        `SELECT DISTINCT l.from_id AS id FROM links l JOIN urls u ON u.id = l.to_id
         WHERE l.written IS NOT (CASE WHEN u.state IN ('archived', 'redirect') THEN u.local_path END)`,
      )
      .all() as { id: number }[]
  ).map((r) => r.id);
  for (const id of stale) await rewriteDocument(archive, id);
  await writeEntryPage(archive);
  return stale.length;
}

function resolveRedirectChains(c: Catalogue): void {
  const step = c.db.prepare(
    `UPDATE urls SET local_path = (
       SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id AND t.state IN ('archived', 'redirect'))
     WHERE state = 'redirect' AND local_path IS NULL AND redirect_to_id IS NOT NULL
       AND (SELECT t.local_path FROM urls t WHERE t.id = urls.redirect_to_id) IS NOT NULL`,
  );
  // Each pass extends resolution by one hop; chains are bounded by maxRedirects, loops never resolve.
  c.transaction(() => {
    while (step.run().changes > 0);
    const unresolved = c.db
      .prepare("SELECT id, redirect_to_id FROM urls WHERE state = 'redirect' AND local_path IS NULL AND error IS NULL")
      .all() as { id: number; redirect_to_id: number | null }[];
    const next = new Map(unresolved.map((r) => [r.id, r.redirect_to_id]));
    const markLoop = c.db.prepare("UPDATE urls SET error = 'redirect loop' WHERE id = ?");
    for (const start of next.keys()) {
      const seen = new Set<number>();
      let cur: number | null | undefined = start;
      while (cur !== null && cur !== undefined && !seen.has(cur)) {
        seen.add(cur);
        cur = next.get(cur);
      }
      if (cur !== null && cur !== undefined && cur === start) markLoop.run(start);
    }
  });
}

async function rewriteDocument(archive: Archive, id: number): Promise<void> {
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
