import { qaScore, type QaCopy, type QaPageResult, type QaSummary } from '../../../shared/qa.js';
import type { Table } from './table.js';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** One copy's figures in a cell: text / screenshot, or why it could not be compared. */
function copyCell(p: QaPageResult, copy: QaCopy): string {
  const c = p.copies[copy];
  if (c === undefined) return 'not compared';
  return c.skipped ?? c.error ?? `${pct(c.textMatch)} / ${pct(c.screenshotMatch)}`;
}

/** The page analysis (`harvest qa`) as report tables: the score histogram, then the pages to look at first. */
export function analysisTables(a: QaSummary | null): Table[] {
  if (a === null) {
    return [
      {
        title: 'Page analysis',
        head: ['', ''],
        rows: [],
        empty: 'The pages were not compared with the site (run harvest qa <archive-dir>).',
      },
    ];
  }
  return [
    {
      title: 'Page analysis',
      note: `Capture ${a.capture}: ${a.analysed} pages compared with their reference (the crawl-time render of a rendered crawl, else the live page), ${a.errors} could not be, ${a.withMissing} lack resources the reference loaded. Each page is compared with its offline copy and its WACZ replay; its score is the lowest of their text and screenshot matches.`,
      head: ['Score', 'Pages'],
      rows: a.histogram.map((count, i) => [`${i * 10}–${i === 9 ? 100 : i * 10 + 9}%`, String(count)]).reverse(),
      empty: '',
    },
    {
      title: 'Pages to look at first',
      head: ['Page', 'Text', 'Screenshot', 'Offline copy (text / screenshot)', 'Replay (text / screenshot)', 'Reference', 'Missing'],
      rows: a.worst.filter((p) => p.error !== null || (qaScore(p) ?? 0) < 1 || p.missing.length > 0).map((p) => [
        p.url,
        pct(p.textMatch),
        pct(p.screenshotMatch),
        copyCell(p, 'mirror'),
        copyCell(p, 'replay'),
        p.reference,
        p.error ?? (p.missing.map((m) => `${m.type}: ${m.url}`).join('\n') || '–'),
      ]),
      empty: 'Every analysed page matches its reference.',
    },
  ];
}
