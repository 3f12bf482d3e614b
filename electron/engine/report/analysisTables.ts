import { qaScore, type QaSummary } from '../../../shared/qa.js';
import type { Table } from './table.js';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** The page analysis (`harvest qa`) as report tables: the score histogram, then the pages to look at first. */
export function analysisTables(a: QaSummary | null): Table[] {
  if (a === null) {
    return [
      {
        title: 'Page analysis',
        head: ['', ''],
        rows: [],
        empty: 'The pages were not compared with the live site (run harvest qa <archive-dir>).',
      },
    ];
  }
  return [
    {
      title: 'Page analysis',
      note: `Capture ${a.capture}: ${a.analysed} pages compared with the live site, ${a.errors} could not be, ${a.withMissing} lack resources the live page loaded. A page's score is the lower of its text and screenshot match.`,
      head: ['Score', 'Pages'],
      rows: a.histogram.map((count, i) => [`${i * 10}–${i === 9 ? 100 : i * 10 + 9}%`, String(count)]).reverse(),
      empty: '',
    },
    {
      title: 'Pages to look at first',
      head: ['Page', 'Text', 'Screenshot', 'Missing'],
      rows: a.worst.filter((p) => p.error !== null || (qaScore(p) ?? 0) < 1 || p.missing.length > 0).map((p) => [
        p.url,
        pct(p.textMatch),
        pct(p.screenshotMatch),
        p.error ?? (p.missing.map((m) => `${m.type}: ${m.url}`).join('\n') || '–'),
      ]),
      empty: 'Every analysed page matches the live site.',
    },
  ];
}
