import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DublinCoreSchema } from '../../../shared/metadata.js';
import {
  BAG_INFO_LINE_WIDTH,
  bagInfoFields,
  foldField,
  formatBagInfo,
  humanSize,
  parseBagInfo,
} from '../../../electron/engine/export/bagInfo.js';
import type { Provenance } from '../../../electron/engine/export/provenance.js';

const LONG =
  'A harvest of the university library website, its catalogue pages, staff directory and news archive, ' +
  'made for the institutional repository after the site moved to a new content management system.';

test('a short field stays on one line', () => {
  assert.equal(foldField('DC-Title', 'Library website'), 'DC-Title: Library website\n');
});

test('a long value is folded at spaces into indented continuation lines of at most 79 characters', () => {
  const text = foldField('External-Description', LONG);
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length > 2);
  assert.ok(lines.every((l) => l.length <= BAG_INFO_LINE_WIDTH), text);
  assert.ok(lines.slice(1).every((l) => /^[ \t]+\S/.test(l)), text);
  assert.deepEqual(parseBagInfo(text), [['External-Description', LONG]]);
});

test('a word longer than a line is kept whole on its own line', () => {
  const url = `https://www.example.edu/${'x'.repeat(120)}`;
  const text = foldField('Harvest-Seed', `see ${url} here`);
  assert.ok(text.split('\n').includes(`  ${url}`), text);
  assert.deepEqual(parseBagInfo(text), [['Harvest-Seed', `see ${url} here`]]);
});

test('line breaks in a value become folds, never a new label', () => {
  const text = foldField('DC-Rights', 'First paragraph.\n\nSecond: paragraph.');
  assert.equal(text, 'DC-Rights: First paragraph.\n  Second: paragraph.\n');
  assert.deepEqual(parseBagInfo(text), [['DC-Rights', 'First paragraph. Second: paragraph.']]);
});

test('bag-info fields: reserved labels, repeated Dublin Core terms, provenance', () => {
  const p: Provenance = {
    name: 'lib',
    seeds: ['https://lib.example.edu/', 'https://www.example.edu/library/'],
    scope: 'host',
    crawlStart: '2026-11-20T10:00:00.000Z',
    crawlEnd: '2026-11-20T11:00:00.000Z',
    captures: 'capture 2 of 3',
    crawlTool: 'Harvest 0.1.0',
    exportTool: 'Harvest 0.1.0',
    robotsPolicy: 'obeyed',
    state: 'finished',
  };
  const m = DublinCoreSchema.parse({
    title: 'Library website',
    subject: ['libraries', 'universities'],
    language: ['en', 'fr-CA'],
    sourceOrganization: 'Example University Archives',
    contactEmail: 'archives@example.edu',
    description: LONG,
  });
  const fields = parseBagInfo(formatBagInfo(bagInfoFields(p, m, { bytes: 1234, files: 2 }, new Date('2026-11-23T12:00:00Z'))));
  const all = (label: string): string[] => fields.filter(([l]) => l === label).map(([, v]) => v);
  assert.deepEqual(all('Source-Organization'), ['Example University Archives']);
  assert.deepEqual(all('Contact-Email'), ['archives@example.edu']);
  assert.deepEqual(all('External-Description'), [LONG]);
  assert.deepEqual(all('Bagging-Date'), ['2026-11-23']);
  assert.deepEqual(all('Payload-Oxum'), ['1234.2']);
  assert.deepEqual(all('Bag-Size'), ['1.2 KB']);
  assert.deepEqual(all('DC-Title'), ['Library website']);
  assert.deepEqual(all('DC-Subject'), ['libraries', 'universities']);
  assert.deepEqual(all('DC-Language'), ['en', 'fr-CA']);
  assert.deepEqual(all('DC-Creator'), [], 'empty terms are left out');
  assert.deepEqual(all('Harvest-Seed'), p.seeds);
  assert.deepEqual(all('Harvest-Crawl-Start'), [p.crawlStart]);
  assert.deepEqual(all('Harvest-Crawl-End'), [p.crawlEnd]);
  assert.deepEqual(all('Harvest-Captures'), ['capture 2 of 3']);
  assert.deepEqual(all('Harvest-Robots-Policy'), ['robots.txt obeyed']);
  assert.deepEqual(all('Harvest-Tool'), ['Harvest 0.1.0']);
});

test('sizes read in decimal units', () => {
  assert.equal(humanSize(999), '999 bytes');
  assert.equal(humanSize(1_500_000), '1.5 MB');
  assert.equal(humanSize(12_400_000_000), '12.4 GB');
});
