#!/usr/bin/env node
// `npm run bench:focus`: what a focused harvest's scoring costs per page, on the bench's 5,000-page
// site. Each HTML page is parsed as the document worker parses it, once plain and once with the
// page-text collector in the same scan plus the analysis (tokens, relevance, link scores, SimHash,
// digest); the difference is the scoring's cost. Field extraction (a DOM, on final pages only) is
// timed apart. Rounds alternate so a machine's drift falls on both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureSite } from './lib/site.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: o } = parseArgs({
  options: {
    pages: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    sites: { type: 'string', default: '/tmp/harvest-bench/sites' },
  },
});
const { parseHtml } = await import(path.join(root, 'dist/electron/engine/parse/html.js'));
const { PageAnalyzer } = await import(path.join(root, 'dist/electron/engine/focus/pageAnalysis.js'));
const { FieldExtractor } = await import(path.join(root, 'dist/electron/engine/focus/extract.js'));
const { parseTemplate } = await import(path.join(root, 'dist/shared/template.js'));

const PORT = 8765;
const site = ensureSite(path.join(root, 'bench', 'harness'), path.resolve(o.sites), Number(o.pages), PORT, (m) => console.error(m));
const www = path.join(site.dir, 'www');
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.html')) files.push(p);
  }
})(www);
const pages = files.map((f) => ({ url: `http://127.0.0.1:${PORT}/${path.relative(www, f).split(path.sep).join('/')}`, body: fs.readFileSync(f) }));

// The core example, with a few more fields to extract.
const template = parseTemplate({
  topic: { keywords: ['flood risk', { term: '洪水', weight: 2, synonyms: ['防洪'] }, 'research', 'library'], threshold: 0.3 },
  filters: [['environment', 'flooding'], ['flood']],
  nextPage: ['next', '下一页'],
  extract: {
    phone: { keywords: ['phone', 'tel', '电话'] },
    email: { keywords: ['email', '邮箱'], regex: '[^@\\s]+@[^@\\s]+' },
    address: { keywords: ['address', '地址'] },
  },
});
const analyzer = new PageAnalyzer(template);
const extractor = new FieldExtractor(template.extract);

function plain() {
  const t = process.hrtime.bigint();
  for (const p of pages) parseHtml(p.body, p.url, 'text/html');
  return Number(process.hrtime.bigint() - t) / 1e3 / pages.length;
}
function scored() {
  const t = process.hrtime.bigint();
  for (const p of pages) {
    const text = analyzer.collector();
    const doc = parseHtml(p.body, p.url, 'text/html', {}, { observer: text });
    analyzer.analyze(text, doc.links, p.body, doc.charset, { level: 1, extract: false });
  }
  return Number(process.hrtime.bigint() - t) / 1e3 / pages.length;
}
function extracted() {
  const t = process.hrtime.bigint();
  for (const p of pages) extractor.extract(p.body.toString('utf8'));
  return Number(process.hrtime.bigint() - t) / 1e3 / pages.length;
}

plain();
scored();
const runs = { plain: [], scored: [], extract: [] };
for (let r = 0; r < Number(o.rounds); r++) {
  runs.plain.push(plain());
  runs.scored.push(scored());
  runs.extract.push(extracted());
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p = median(runs.plain);
const s = median(runs.scored);
const bytes = pages.reduce((n, x) => n + x.body.length, 0) / pages.length;
console.log(`${pages.length} HTML pages (mean ${(bytes / 1024).toFixed(1)} KiB), median of ${o.rounds} rounds, µs per page:`);
console.log(`  parse as the document worker does:             ${p.toFixed(0)}`);
console.log(`  parse + page text + scoring (focused harvest): ${s.toFixed(0)}`);
console.log(`  scoring's own cost:                            ${(s - p).toFixed(0)} (${(((s - p) / p) * 100).toFixed(0)}% of the parse)`);
console.log(`  field extraction on a DOM (final pages only):  ${median(runs.extract).toFixed(0)}`);
