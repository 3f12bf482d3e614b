import type { DublinCore } from '../../../shared/metadata.js';
import type { Provenance } from './provenance.js';

/** Dublin Core terms in the order and with the labels people read them in. */
export const DUBLIN_CORE_LABELS: [keyof DublinCore, string][] = [
  ['title', 'Title'],
  ['creator', 'Creator'],
  ['subject', 'Subject'],
  ['description', 'Description'],
  ['publisher', 'Publisher'],
  ['date', 'Date'],
  ['rights', 'Rights'],
  ['language', 'Language'],
  ['coverage', 'Coverage'],
  ['sourceOrganization', 'Source organisation'],
  ['contactEmail', 'Contact email'],
];

/** The filled-in terms as label/value pairs, list terms joined. */
export function metadataLines(m: DublinCore): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, label] of DUBLIN_CORE_LABELS) {
    const v = m[key];
    const text = Array.isArray(v) ? v.join(', ') : v;
    if (text !== '') out.push([label, text]);
  }
  return out;
}

/** `_about.txt` of a ZIP export: what it is, when and how it was made, and how to open it. */
export function aboutText(p: Provenance, m: DublinCore, exportedAt: Date, longPaths = 0): string {
  const lines = [
    `${m.title || p.name}`,
    '',
    'An offline copy of a website made with Harvest. Open index.html in a web browser to browse it;',
    'no internet connection is needed. Links to pages that were not harvested still point at the web.',
    '',
    `Seeds:          ${p.seeds.join(' ')}`,
    `Scope:          ${p.scope}`,
    `Crawl started:  ${p.crawlStart ?? 'not started'}`,
    `Crawl ended:    ${p.crawlEnd ?? `not finished (${p.state})`}`,
    `robots.txt:     ${p.robotsPolicy}`,
    `Crawled with:   ${p.crawlTool}`,
    `Exported:       ${exportedAt.toISOString()} with ${p.exportTool}`,
  ];
  if (longPaths > 0) {
    lines.push(
      '',
      `${longPaths} path(s) here are longer than 260 characters. On Windows, unpack into a short folder`,
      '(such as C:\\site) or enable long paths, or those files may not open.',
    );
  }
  const meta = metadataLines(m);
  if (meta.length > 0) lines.push('', 'Description of the archive (Dublin Core):', ...meta.map(([k, v]) => `${k}: ${v}`));
  return lines.join('\n') + '\n';
}
