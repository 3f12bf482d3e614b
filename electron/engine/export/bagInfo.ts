import type { DublinCore } from '../../../shared/metadata.js';
import type { Provenance } from './provenance.js';

/**
 * bag-info.txt (RFC 8493 section 2.2.2): `Label: value` lines, labels repeatable, long values
 * folded onto continuation lines that start with whitespace. Besides the reserved labels, the
 * archive's Dublin Core terms go in as `DC-<Term>` and the crawl's provenance as `Harvest-<Field>`.
 */

export type BagInfoField = [label: string, value: string];

/** RFC 8493 recommends lines of at most 79 characters. */
export const BAG_INFO_LINE_WIDTH = 79;
const CONTINUATION_INDENT = '  ';

/** Dublin Core element -> bag-info label; list elements repeat the label once per value. */
export const DUBLIN_CORE_BAG_LABELS: Record<Exclude<keyof DublinCore, 'sourceOrganization' | 'contactEmail'>, string> = {
  title: 'DC-Title',
  creator: 'DC-Creator',
  subject: 'DC-Subject',
  description: 'DC-Description',
  publisher: 'DC-Publisher',
  contributor: 'DC-Contributor',
  date: 'DC-Date',
  type: 'DC-Type',
  format: 'DC-Format',
  identifier: 'DC-Identifier',
  source: 'DC-Source',
  language: 'DC-Language',
  relation: 'DC-Relation',
  coverage: 'DC-Coverage',
  rights: 'DC-Rights',
};

/**
 * One field as lines of at most `width` characters where its words allow (a word longer than the
 * line stays whole: breaking it would change the value). Line breaks in the value become folds.
 */
export function foldField(label: string, value: string, width = BAG_INFO_LINE_WIDTH): string {
  const paragraphs = value
    .split(/\r\n|\r|\n/)
    .map((p) => p.split(/[ \t]+/).filter((w) => w !== ''))
    .filter((p) => p.length > 0);
  const lines: string[] = [];
  let line = `${label}: `;
  let empty = true;
  const flush = (): void => {
    lines.push(line.trimEnd());
    line = CONTINUATION_INDENT;
    empty = true;
  };
  paragraphs.forEach((words, i) => {
    if (i > 0) flush();
    for (const w of words) {
      if (!empty && line.length + 1 + w.length > width) flush();
      line += empty ? w : ` ${w}`;
      empty = false;
    }
  });
  lines.push(line.trimEnd());
  return lines.map((l) => l + '\n').join('');
}

export function formatBagInfo(fields: BagInfoField[]): string {
  return fields.map(([label, value]) => foldField(label, value)).join('');
}

/** Reads bag-info.txt back: continuation lines are joined to their field with one space. */
export function parseBagInfo(text: string): BagInfoField[] {
  const out: BagInfoField[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    if (/^[ \t]/.test(line)) {
      const last = out[out.length - 1];
      if (last) last[1] = last[1] === '' ? line.trim() : `${last[1]} ${line.trim()}`;
      continue;
    }
    const i = line.indexOf(':');
    if (i <= 0) throw new Error(`not 'Label: value': ${JSON.stringify(line.slice(0, 120))}`);
    out.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  return out;
}

/** Bytes as bag-info's Bag-Size shows them, e.g. "12.4 MB" (decimal units). */
export function humanSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${bytes} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

export interface PayloadTotals {
  bytes: number;
  files: number;
}

/** Every bag-info field of an archive's bag, in a stable order. */
export function bagInfoFields(p: Provenance, m: DublinCore, payload: PayloadTotals, baggingDate: Date): BagInfoField[] {
  const fields: BagInfoField[] = [];
  const add = (label: string, value: string): void => {
    if (value.trim() !== '') fields.push([label, value]);
  };
  add('Source-Organization', m.sourceOrganization || m.publisher);
  add('Contact-Email', m.contactEmail);
  add('External-Description', m.description || `Web archive of ${p.seeds.join(' ')} made with ${p.crawlTool}`);
  add('Bagging-Date', baggingDate.toISOString().slice(0, 10));
  add('Payload-Oxum', `${payload.bytes}.${payload.files}`);
  add('Bag-Size', humanSize(payload.bytes));
  add('Bag-Software-Agent', p.exportTool);
  for (const [key, label] of Object.entries(DUBLIN_CORE_BAG_LABELS) as [keyof typeof DUBLIN_CORE_BAG_LABELS, string][]) {
    const v = m[key];
    for (const item of Array.isArray(v) ? v : [v]) add(label, item);
  }
  for (const seed of p.seeds) add('Harvest-Seed', seed);
  add('Harvest-Scope', p.scope);
  add('Harvest-Crawl-Start', p.crawlStart ?? '');
  add('Harvest-Crawl-End', p.crawlEnd ?? '');
  add('Harvest-Captures', p.captures);
  add('Harvest-Crawl-State', p.state);
  add('Harvest-Tool', p.crawlTool);
  add('Harvest-Robots-Policy', p.robotsPolicy === 'obeyed' ? 'robots.txt obeyed' : 'robots.txt ignored');
  return fields;
}
