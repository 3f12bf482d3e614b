import { finalTarget } from '../crawl/documents.js';
import { ENTRY_PAGE } from '../crawl/finalize.js';
import type { Archive } from '../store/archive.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween } from '../url/localPath.js';

export { ENTRY_PAGE };

/**
 * A stand-in `index.html` for a mirror that has none yet (a crawl paused before it finished): it
 * forwards to the first seed's local page, so the export still opens by double-click.
 */
export function redirectEntryPage(archive: Archive): string {
  let href: string | null = null;
  for (const seed of archive.job.seeds) {
    const canonical = canonicalize(seed);
    const row = canonical === null ? undefined : archive.catalogue.lookup(canonical);
    const target = row ? finalTarget(row) : null;
    if (target !== null) {
      href = hrefBetween(ENTRY_PAGE, target);
      break;
    }
  }
  const title = escapeHtml(archive.job.name);
  const body =
    href === null
      ? '<p>No seed page was archived yet.</p>'
      : `<p><a href="${escapeHtml(href)}">Open the archived site</a></p>`;
  const refresh = href === null ? '' : `\n<meta http-equiv="refresh" content="0; url=${escapeHtml(href)}">`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">${refresh}
<title>${title}</title>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
