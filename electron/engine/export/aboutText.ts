import { metadataLines, type DublinCore } from '../../../shared/metadata.js';
import type { Provenance } from './provenance.js';

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
