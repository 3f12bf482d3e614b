import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplate } from '../../../shared/template.js';
import { DuplicateMemory } from '../../../electron/engine/focus/duplicateMemory.js';
import { FocusJudge } from '../../../electron/engine/focus/focusJudge.js';
import { PageAnalyzer } from '../../../electron/engine/focus/pageAnalysis.js';
import { FocusTextCollector } from '../../../electron/engine/focus/pageText.js';
import { similarityOf } from '../../../electron/engine/focus/simhash.js';
import { parseHtml } from '../../../electron/engine/parse/html.js';
import { duplicateFixture, type FixturePage } from '../../helpers/duplicateFixture.js';

const template = parseTemplate({ topic: { keywords: ['flood'], threshold: 0 } });

/** Every page judged in crawl order, as a focused harvest judges them; its flag and the page it names. */
function judgeAll(pages: readonly FixturePage[]) {
  const analyzer = new PageAnalyzer(template);
  const judge = new FocusJudge(template);
  const memory = new DuplicateMemory(template.nearDuplicate.maxHamming);
  return pages.map((p, id) => {
    const text = analyzer.collector();
    const body = Buffer.from(p.html);
    const doc = parseHtml(body, p.url, 'text/html', {}, { observer: text });
    const a = analyzer.analyze(text, doc.links, body, 'utf-8', { level: 0, extract: false });
    const v = judge.judge(id, 0, a, memory);
    return { page: p, original: v.duplicateOf === null ? null : pages[v.duplicateOf]! };
  });
}

function measure(pages: readonly FixturePage[]) {
  const seen = new Set<string>();
  let copies = 0;
  let flags = 0;
  let right = 0;
  const wrong: string[] = [];
  const crossOrg: string[] = [];
  for (const { page, original } of judgeAll(pages)) {
    if (seen.has(page.doc)) copies++;
    seen.add(page.doc);
    if (original === null) continue;
    flags++;
    if (original.doc === page.doc) right++;
    else {
      wrong.push(`${page.url} -> ${original.url}`);
      if (original.org !== page.org) crossOrg.push(`${page.url} -> ${original.url}`);
    }
  }
  return { copies, flags, right, precision: flags === 0 ? 1 : right / flags, recall: copies === 0 ? 1 : right / copies, wrong, crossOrg };
}

describe('near-duplicates on the fixture of five organisations', () => {
  const pages = duplicateFixture();

  it('holds print versions, syndicated and tracking-parameter copies, and look-alikes of different organisations', () => {
    const kinds = new Map<string, number>();
    for (const p of pages) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries([...kinds].sort()), { article: 25, contact: 5, home: 5, listing: 5, notice: 15, print: 13, sitemap: 5, syndicated: 5, tracking: 10 });
  });

  it('flags copies with precision and recall of at least 0.95, and never a page of another organisation', (t) => {
    const m = measure(pages);
    t.diagnostic(`copies ${m.copies}, flags ${m.flags}, right ${m.right}: precision ${m.precision.toFixed(3)}, recall ${m.recall.toFixed(3)}`);
    for (const w of m.wrong) t.diagnostic(`wrong: ${w}`);
    assert.deepEqual(m.crossOrg, []);
    assert.ok(m.precision >= 0.95, `precision ${m.precision}`);
    assert.ok(m.recall >= 0.95, `recall ${m.recall}`);
  });
});

describe('main content', () => {
  const main = (html: string) => {
    const text = new FocusTextCollector();
    parseHtml(Buffer.from(html), 'http://a.test/', 'text/html', {}, { observer: text });
    return text.result().main;
  };

  it('leaves out chrome elements, chrome classes and link lists, and keeps links in running text', () => {
    const m = main(
      '<body><header>Org</header><div class="menu">Home About</div><div id="content"><h1>Floods</h1>' +
        '<p>Read the <a href="/r">flood report</a> before the winter storms arrive.</p><ul><li><a href="/1">One</a></li><li><a href="/2">Two</a> x</li></ul>' +
        '<div class="share-box">Share this page</div></div><div class="foot">© Org</div><footer>Bye</footer></body>',
    );
    assert.deepEqual(m.text.split('\n'), ['Floods', 'Read the flood report before the winter storms arrive.']);
    // The link list's 7 characters (6 in links) and the link in running text (12 of 52) are link characters.
    assert.ok(Math.abs(m.linkShare - (7 + 12) / (6 + 52 + 7)) < 1e-9, String(m.linkShare));
  });

  it('gives a page that is mostly links, or has little main text, no SimHash: only its bytes can repeat another page', () => {
    const analyzer = new PageAnalyzer(template);
    const fingerprint = (html: string) => {
      const text = analyzer.collector();
      const doc = parseHtml(Buffer.from(html), 'http://a.test/', 'text/html', {}, { observer: text });
      return analyzer.analyze(text, doc.links, Buffer.from(html), 'utf-8', { level: 0, extract: false });
    };
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const links = Array.from({ length: 40 }, (_, i) => `<li><a href="/${i}">Section ${i} page</a></li>`).join('');
    // 40 words beside twice their characters in link lists: a list of links, whatever its words.
    assert.equal(fingerprint(`<h1>Sitemap</h1><p>${words}</p><ul>${links}</ul>`).simhash, '0000000000000000');
    assert.equal(fingerprint(`<p>${words.slice(0, 60)}</p>`).simhash, '0000000000000000');
    const page = fingerprint(`<p>${words}</p>`);
    assert.notEqual(page.simhash, '0000000000000000');
    // Same main text in other chrome: the same digest.
    assert.equal(fingerprint(`<nav><a href="/">Home</a></nav><p>${words}</p>`).digest, page.digest);
  });

  it('names a near-duplicate\'s similarity: 1 for the same main content, else the share of SimHash bits agreeing', () => {
    assert.equal(similarityOf('00000000000000ff', 'a', '0000000000000000', 'a'), 1);
    assert.equal(similarityOf('00000000000000ff', 'a', '0000000000000000', 'b'), 1 - 8 / 64);
  });
});
