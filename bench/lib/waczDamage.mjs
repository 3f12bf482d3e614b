/**
 * Damaged copies of a real WACZ, one fault each, repacked with a datapackage.json that matches (so
 * only the index or the page list tells): what `harvest verify --deep` must reject. The undamaged
 * repack must pass.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { waczPackage, writeZip } from '../../dist/test/helpers/zipFiles.js';
import { extractZip } from '../../dist/test/helpers/zipReadBack.js';

const CLI = new URL('../../dist/electron/bundle/harvest.js', import.meta.url).pathname;

/** `harvest verify --deep`'s exit code and first lines of output. */
export function verifyDeep(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'verify', file, '--deep'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out: out.split('\n').slice(0, 3).join(' | ').slice(0, 300) }));
  });
}

const parse = (line) => {
  const brace = line.indexOf('{');
  return { head: line.slice(0, brace), json: JSON.parse(line.slice(brace)) };
};
const unparse = ({ head, json }) => head + JSON.stringify(json);
const withJson = (line, change) => {
  const l = parse(line);
  change(l.json);
  return unparse(l);
};

/** Each fault: its name and how it changes { warcs, index, pages }. */
const FAULTS = [
  ['an index offset shifted', (w) => ({ ...w, index: w.index.map((l, i) => (i === w.middle ? withJson(l, (j) => (j.offset = typeof j.offset === 'string' ? String(Number(j.offset) + 7) : j.offset + 7)) : l)) })],
  ['index lines unsorted', (w) => ({ ...w, index: w.index.map((l, i, all) => (i === 1 ? all[all.length - 2] : i === all.length - 2 ? all[1] : l)) })],
  ['an index line removed', (w) => ({ ...w, index: w.index.filter((_, i) => i !== w.middle) })],
  ['a wrong URL on an index line', (w) => ({ ...w, index: w.index.map((l, i) => (i === w.middle ? withJson(l, (j) => (j.url = j.url + 'x')) : l)) })],
  ['a WARC stored deflated', (w) => ({ ...w, deflate: true })],
  ['images left out of the index', (w) => ({ ...w, index: w.index.filter((l) => !/"mime":"image\//.test(l)) })],
  ['no pages', (w) => ({ ...w, pages: w.pages.slice(0, 1) })],
  ['a page that is not archived', (w) => ({ ...w, pages: [...w.pages, w.pages[1].replace(/"url":"([^"]+)"/, (_, u) => `"url":"${new URL('/never-archived.html', u).href}"`)] })],
  [
    'a page time matching no record',
    (w) => ({
      ...w,
      pages: w.pages.map((l, i) => (i === 1 ? l.replace(/"ts":"([^"]+)"/, (_, ts) => `"ts":"${new Date(Date.parse(ts) + 2000).toISOString().replace(/\.\d+Z$/, 'Z')}"`) : l)),
    }),
  ],
];

/** Repacks `wacz` once as it is and once per fault under `work`, verifies each; returns the rows. */
export async function damagedCopies(wacz, work) {
  const dir = path.join(work, 'unpacked');
  const names = (await extractZip(wacz, dir)).map((e) => e.name);
  const read = (name) => readFileSync(path.join(dir, ...name.split('/')));
  const warcs = names.filter((n) => n.startsWith('archive/')).map((name) => ({ name, data: read(name) }));
  const cdx = names.includes('indexes/index.cdx') ? read('indexes/index.cdx') : gunzipSync(read('indexes/index.cdx.gz'));
  const index = cdx.toString('utf8').split('\n').filter(Boolean);
  const pages = read('pages/pages.jsonl').toString('utf8').split('\n').filter(Boolean);
  const htmlLines = index.map((l, i) => [l, i]).filter(([l]) => /"mime":"text\/html/.test(l));
  const base = { warcs, index, pages, middle: htmlLines[Math.floor(htmlLines.length / 2)][1], deflate: false };
  const rows = [];
  for (const [name, damage] of [['none (the export repacked)', (w) => w], ...FAULTS]) {
    const w = damage(base);
    const resources = [
      ...w.warcs.map((r) => ({ ...r, compress: w.deflate })),
      { name: 'indexes/index.cdx', data: Buffer.from(w.index.map((l) => l + '\n').join('')) },
      { name: 'pages/pages.jsonl', data: Buffer.from(w.pages.map((l) => l + '\n').join('')) },
    ];
    const file = path.join(work, `damaged-${rows.length}.wacz`);
    await writeZip(file, [...resources, ...waczPackage(resources)]);
    const { status, out } = await verifyDeep(file);
    rows.push({ fault: name, status, expected: name.startsWith('none') ? 0 : 1, out });
  }
  return rows;
}
