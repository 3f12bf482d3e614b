import { DUBLIN_CORE_ELEMENTS, metadataLines, type DublinCore } from '../../../shared/metadata.js';
import type { Archive } from '../store/archive.js';
import { readMetadata } from '../store/metadata.js';
import { canonicalize } from '../url/canonical.js';
import { hrefBetween } from '../url/localPath.js';
import { finalTarget } from './documents.js';

/** The mirror's front door, at its top. */
export const ENTRY_PAGE = 'index.html';

/**
 * The front door's HTML: the archive's title and description as the archivist wrote them (the job's
 * name until then), a link to each seed's saved copy, and the rest of its Dublin Core description,
 * also as `DC.*` meta elements (DCMI's convention for HTML) so a catalogue harvester finds it.
 */
export function entryPageHtml(archive: Archive, m: DublinCore): string {
  const c = archive.catalogue;
  const items = archive.job.seeds.map((seed) => {
    const canonical = canonicalize(seed);
    const row = canonical === null ? undefined : c.lookup(canonical);
    const target = row ? finalTarget(row) : null;
    const href = target === null ? seed : hrefBetween(ENTRY_PAGE, target);
    const note = target === null ? ' (not archived)' : '';
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(seed)}</a>${note}</li>`;
  });
  const title = escapeHtml(m.title || archive.job.name);
  const description = m.description ? `\n<p>${escapeHtml(m.description)}</p>` : '';
  const described = metadataLines(m).filter(([label]) => label !== 'Title' && label !== 'Description');
  const about =
    described.length === 0
      ? ''
      : `\n<h2>About this archive</h2>\n<dl>\n${described.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}\n</dl>`;
  const dcMeta = dublinCoreMeta(m);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>${m.description ? `\n<meta name="description" content="${escapeHtml(m.description)}">` : ''}${dcMeta}
<style>${ENTRY_STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>${description}
<p class="muted">Offline copy made by Harvest. Harvest started ${escapeHtml(readableDate(c.getMeta('started_at')))}.</p>
<h2>Start from a seed</h2>
<ul>
${items.join('\n')}
</ul>${about}
</main>
</body>
</html>
`;
}

/** The Harvest app's colours and type, light and dark, so the copy's front door looks like the app. */
const ENTRY_STYLE = `
:root { --bg: #f7f7f5; --panel: #fff; --text: #1d1f21; --muted: #6b6f76; --border: #d9dadc; --accent: #2f6f4f; }
@media (prefers-color-scheme: dark) { :root { --bg: #17191b; --panel: #1f2225; --text: #e6e6e3; --muted: #9aa0a6; --border: #34383c; --accent: #5fae86; } }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; }
main { max-width: 46em; margin: 32px auto; background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 20px 28px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 20px 0 6px; }
.muted { color: var(--muted); } a { color: var(--accent); } li { margin: 4px 0; word-break: break-all; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; } dt { color: var(--muted); } dd { margin: 0; }`;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A file on disk can't follow the reader's locale: a long English date, in UTC, says itself
 * (`5 November 2026 at 06:07 UTC`). Written by hand: toLocaleString reads some 4.5 MB of ICU's
 * locale data into the crawl's memory for this one line.
 */
export function readableDate(iso: string | null): string {
  if (iso === null) return 'not yet';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (x: number) => String(x).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** Writes the front door from the archive's stored description: after a crawl and after every edit of it. */
export function writeEntryPage(archive: Archive): void {
  archive.mirror.writeSync(ENTRY_PAGE, entryPageHtml(archive, readMetadata(archive.catalogue)));
}

function dublinCoreMeta(m: DublinCore): string {
  const lines: string[] = [];
  for (const key of DUBLIN_CORE_ELEMENTS) {
    const v = m[key];
    for (const value of Array.isArray(v) ? v : [v]) {
      if (value !== '') lines.push(`<meta name="DC.${key}" content="${escapeHtml(value)}">`);
    }
  }
  return lines.length === 0 ? '' : `\n<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">\n${lines.join('\n')}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
