import { analysisTables } from './analysisTables.js';
import { importTables } from './importTables.js';
import { formatBytes, formatCount, formatDuration, formatLimits } from '../../../shared/format.js';
import type { QaReport } from './collect.js';
import type { Table } from './table.js';

/**
 * The QA report as Markdown and as one self-contained HTML file: styles inline, no script, no
 * image or font fetched, so it prints and reads the same anywhere, without the app.
 */

// The app's units and words (shared/format.ts): decimal SI sizes, durations in minutes and hours.
const n = formatCount;
const size = formatBytes;

/** The harvest's name; an archive without one (an import) is called by its Dublin Core title, else its seeds. */
function nameOf(r: QaReport): string {
  const name = r.stats.name.trim();
  if (name !== '') return name;
  return r.metadata.find(([label]) => label === 'Title')?.[1] ?? (r.stats.seeds.join(', ') || 'Untitled harvest');
}

/** Every section of the report as plain-text tables; both renderers draw the same ones. */
function tables(r: QaReport): Table[] {
  const s = r.stats;
  const examples = (e: string[]) => e.join('\n');
  return [
    {
      title: 'Harvest',
      head: ['Item', 'Value'],
      rows: [
        ['Name', nameOf(r)],
        ['Seeds', s.seeds.join('\n')],
        ['Scope', `${r.scope.mode}${r.scope.include.length ? `; include ${r.scope.include.join(', ')}` : ''}${r.scope.exclude.length ? `; exclude ${r.scope.exclude.join(', ')}` : ''}`],
        ['Off-site requisites', r.scope.offsiteRequisites ? 'fetched' : 'not fetched'],
        ['Private networks allowed', r.scope.allowNetworks.length > 0 ? r.scope.allowNetworks.join(', ') : "none (only the seeds' own hosts)"],
        ['Limits', formatLimits(r.scope.limits)],
        ['State', s.state],
        ['Created', r.dates.createdAt ?? '–'],
        ['Started', r.dates.startedAt ?? '–'],
        ['Finished', r.dates.finishedAt ?? '–'],
        ['Crawl time', formatDuration(s.durationMs)],
        ['robots.txt', s.robotsPolicy],
        ['Search index', r.search.indexed ? `${n(r.search.urls)} documents (${n(r.search.texts)} distinct texts)` : 'none (run harvest reindex)'],
      ],
      empty: '',
    },
    {
      title: 'Description (Dublin Core)',
      head: ['Element', 'Value'],
      rows: r.metadata,
      empty: 'No descriptive metadata: add it in the app or with harvest metadata <archive-dir> --set title=… .',
    },
    {
      title: 'Totals by state',
      head: ['State', 'URLs'],
      rows: [
        ...Object.entries(s.byState).map(([k, v]) => [k, n(v)]),
        ['discovered', n(s.counts.discovered)],
        ['bytes fetched', size(s.counts.bytes)],
      ],
      empty: '',
    },
    {
      title: 'Archived by MIME type',
      head: ['MIME type', 'Files', 'Bytes'],
      rows: r.byMimeType.map((m) => [m.mimeType, n(m.count), size(m.bytes)]),
      empty: 'Nothing archived.',
    },
    {
      title: 'Skipped, by reason',
      head: ['Reason', 'URLs', 'Examples'],
      rows: r.skipped.map((x) => [x.reason, n(x.count), examples(x.examples)]),
      empty: 'Nothing skipped.',
    },
    {
      title: 'Crawler-trap guards hit',
      head: ['Guard', 'URLs', 'Examples'],
      rows: r.trapGuards.map((x) => [x.guard, n(x.count), examples(x.examples)]),
      empty: 'No trap guard was hit.',
    },
    {
      title: 'HTTP errors',
      head: ['Status', 'URLs', 'Examples'],
      rows: r.httpErrors.map((x) => [String(x.status), n(x.count), examples(x.examples)]),
      empty: 'No HTTP errors.',
    },
    {
      title: 'Failures',
      head: ['Reason', 'URLs', 'Examples'],
      rows: r.failures.map((x) => [x.reason, n(x.count), examples(x.examples)]),
      empty: 'No failures.',
    },
    {
      title: 'robots.txt',
      note: `Policy: ${r.robots.policy}.`,
      head: ['Site', 'Answer', 'Fetched'],
      rows: r.robots.sites.map((x) => [x.site, x.error ?? (x.httpStatus === null ? '–' : `HTTP ${x.httpStatus}`), x.fetchedAt]),
      empty: 'No robots.txt fetched.',
    },
    {
      title: 'Largest files',
      head: ['URL', 'Type', 'Size'],
      rows: r.largestFiles.map((x) => [x.url, x.contentType ?? '–', size(x.bytes)]),
      empty: 'No files.',
    },
    {
      title: 'Links left absolute in the offline copy',
      note: 'References to what was not archived keep their original address, so they still work online.',
      head: ['Why', 'References', 'Examples (page → target)'],
      rows: r.absoluteLinks.map((x) => [x.reason, n(x.count), x.examples.map((e) => `${e.from} → ${e.to}`).join('\n')]),
      empty: 'Every reference points into the offline copy.',
    },
    ...importTables(r.imported),
    ...analysisTables(r.analysis),
    {
      title: 'Home page thumbnails',
      head: ['Seed', 'Thumbnail'],
      rows: r.thumbnails.map((t) => [t.url, t.image]),
      empty: 'No thumbnails: the pages were not rendered (crawl with --render, or run harvest thumbnails <archive-dir> on the finished archive).',
    },
    {
      title: 'Checksums',
      note: `${n(r.checksums.payloadDigests)} distinct payload digests recorded (${r.checksums.algorithm}).`,
      head: ['WARC file', 'Size', 'SHA-256'],
      rows: r.checksums.warcFiles.map((w) => [w.name, size(w.bytes), w.sha256]),
      empty: 'No WARC files (crawled with --no-warc).',
    },
  ];
}

/**
 * Text (crawled headers and URLs included) as Markdown shows it and nothing more: HTML escaped as
 * entities, and the punctuation that would make links, images, emphasis or code backslash-escaped.
 */
const MD_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const mdText = (s: string) => s.replace(/[\\`*_[\]!|#~]/g, (c) => `\\${c}`).replace(/[&<>]/g, (c) => MD_ENTITIES[c]!);
const mdCell = (s: string) => mdText(s).replace(/\r?\n/g, '<br>');

export function reportMarkdown(r: QaReport): string {
  const out = [`# QA report: ${mdText(nameOf(r))}`, '', `Generated ${mdText(r.generatedAt)} by ${mdText(r.generator)} from ${mdText(r.archiveDir)}.`, ''];
  for (const t of tables(r)) {
    out.push(`## ${t.title}`, '');
    if (t.note) out.push(mdText(t.note), '');
    if (t.rows.length === 0) {
      out.push(t.empty, '');
      continue;
    }
    out.push(`| ${t.head.map(mdCell).join(' | ')} |`, `|${t.head.map(() => '---').join('|')}|`);
    for (const row of t.rows) out.push(`| ${row.map(mdCell).join(' | ')} |`);
    out.push('');
  }
  return out.join('\n');
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d232a; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin: 1.6rem 0 .4rem; border-bottom: 1px solid #ccd3da; }
p.meta { color: #56606b; margin-top: 0; } table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid #e3e7eb; }
th { background: #f2f4f6; font-weight: 600; } td { white-space: pre-line; overflow-wrap: anywhere; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; } .empty { color: #56606b; font-style: italic; }
code, td.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12px; }
@media print { body { margin: 0; max-width: none; font-size: 11px; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
`;

export function reportHtml(r: QaReport): string {
  const sections = tables(r).map((t) => {
    const note = t.note ? `<p>${esc(t.note)}</p>` : '';
    if (t.rows.length === 0) return `<section><h2>${esc(t.title)}</h2>${note}<p class="empty">${esc(t.empty)}</p></section>`;
    const numeric = t.head.map((h) => /^(URLs|Files|Bytes|Size|References)$/.test(h));
    const head = t.head.some((h) => h !== '') ? `<thead><tr>${t.head.map((h, i) => `<th${numeric[i] ? ' class="num"' : ''}>${esc(h)}</th>`).join('')}</tr></thead>` : '';
    const body = t.rows
      .map((row) => `<tr>${row.map((cell, i) => `<td${numeric[i] ? ' class="num"' : t.head[i] === 'SHA-256' ? ' class="mono"' : ''}>${esc(cell)}</td>`).join('')}</tr>`)
      .join('\n');
    return `<section><h2>${esc(t.title)}</h2>${note}<table>${head}<tbody>\n${body}\n</tbody></table></section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>QA report: ${esc(nameOf(r))}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>QA report: ${esc(nameOf(r))}</h1>
<p class="meta">Generated ${esc(r.generatedAt)} by ${esc(r.generator)} from <code>${esc(r.archiveDir)}</code></p>
${sections.join('\n')}
</body>
</html>
`;
}
