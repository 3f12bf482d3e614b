import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHtml } from '../../../electron/engine/parse/html.js';

const DOC = 'https://ex.com/';

function timed<T>(f: () => T): [T, number] {
  const started = performance.now();
  const result = f();
  return [result, performance.now() - started];
}

function nested(depth: number): Buffer {
  return Buffer.from(`<!doctype html><title>deep</title>${'<div>'.repeat(depth)}<a href="/x">x</a>${'</div>'.repeat(depth)}`);
}

describe('parseHtml on malformed markup', () => {
  const cases: Record<string, string> = {
    'unclosed tags': '<html><body><div><p><a href="a.html">a<span><b>bold',
    'stray <': '<p>1 < 2 and 3 <4 and a <<a href="b.html">b</a> < /p>',
    'unquoted attributes': '<a href=c.html class=x>c</a><img src=i.png alt=a b>',
    'truncated mid-tag': '<p>ok</p><a href="d.html">d</a><img src="trunc',
    'truncated mid-attribute name': '<a href="e.html">e</a><img sr',
    'truncated in a comment': '<a href="f.html">f</a><!-- never closed <a href="no.html">',
    'truncated in a style block': '<a href="g.html">g</a><style>a{background:url(h.png',
    'unclosed title swallows the rest': '<title>t<a href="no.html">',
    'garbage bytes': '\u0000\uFFFD<<<>>>&&&;;<a/href=x.html><!><!-><?php ?></>',
    'attribute soup': '<a href="i.html"href=j.html"" ="" x=y=z \'q\'>i</a>',
    'nested anchors and misnesting': '<a href="k.html"><b><a href="l.html">l</b></a></a>',
  };
  for (const [name, html] of Object.entries(cases)) {
    it(`never throws: ${name}`, () => {
      const doc = parseHtml(Buffer.from(html), DOC, null);
      const out = doc.render(() => 'local.html').toString();
      assert.ok(out.includes('<meta charset="utf-8">'));
    });
  }

  it('extracts what is well-formed enough from broken pages', () => {
    const urls = (html: string): string[] => parseHtml(Buffer.from(html), DOC, null).links.map((l) => l.url);
    assert.deepEqual(urls(cases['unclosed tags'] ?? ''), ['https://ex.com/a.html']);
    assert.deepEqual(urls(cases['unquoted attributes'] ?? ''), ['https://ex.com/c.html', 'https://ex.com/i.png']);
    assert.deepEqual(urls(cases['truncated mid-tag'] ?? ''), ['https://ex.com/d.html']);
    assert.deepEqual(urls(cases['truncated in a comment'] ?? ''), ['https://ex.com/f.html']);
    assert.deepEqual(urls(cases['truncated in a style block'] ?? ''), ['https://ex.com/g.html', 'https://ex.com/h.png']);
    assert.deepEqual(urls(cases['unclosed title swallows the rest'] ?? ''), []);
    assert.deepEqual(urls(cases['attribute soup'] ?? ''), ['https://ex.com/i.html']);
  });

  it('a truncated tag stays in the copy as it was', () => {
    const out = parseHtml(Buffer.from('<a href="d.html">d</a><img src="trunc'), DOC, null)
      .render(() => 'l.html')
      .toString();
    assert.equal(out, '<head><meta charset="utf-8"></head><a href="l.html">d</a><img src="trunc');
  });
});

describe('parseHtml is bounded', () => {
  it('parses and renders 100,000 nested elements, in roughly linear time', () => {
    parseHtml(nested(1000), DOC, null); // warm up the JIT so the small run is not penalised
    const [small, smallMs] = timed(() => parseHtml(nested(25_000), DOC, null));
    const [deep, deepMs] = timed(() => parseHtml(nested(100_000), DOC, null));
    assert.equal(small.links.length, 1);
    assert.equal(deep.links.length, 1);
    const out = deep.render(() => 'x.html');
    assert.ok(out.includes('<a href="x.html">x</a>'));
    // 4x the input: a quadratic parser would take ~16x; allow plenty of noise below that.
    assert.ok(deepMs < Math.max(10 * smallMs, 500), `25k: ${smallMs.toFixed(0)} ms, 100k: ${deepMs.toFixed(0)} ms`);
  });

  it('unclosed nesting 100,000 deep', () => {
    const doc = parseHtml(Buffer.from(`${'<div><span>'.repeat(100_000)}<img src="i.png">`), DOC, null);
    assert.equal(doc.links.length, 1);
  });

  it('a 5 MB page with 100,000 links', () => {
    const parts = ['<!doctype html><html><head><title>big</title></head><body>'];
    for (let i = 0; i < 100_000; i++) parts.push(`<p class="item"><a href="/page/${i}?a=1&amp;b=2">Item number ${i}</a></p>\n`);
    const body = Buffer.from(parts.join(''));
    assert.ok(body.length > 5_000_000);
    const [doc, ms] = timed(() => parseHtml(body, DOC, null));
    assert.equal(doc.links.length, 100_000);
    assert.equal(doc.links[99_999]?.text, 'Item number 99999');
    const out = doc.render((l) => (l.url.endsWith('0?a=1&b=2') ? 'local.html' : null));
    assert.ok(out.length > body.length);
    assert.ok(ms < 20_000, `took ${ms.toFixed(0)} ms`);
  });

  it('a hostile attribute-heavy tag', () => {
    const attrs = Array.from({ length: 50_000 }, (_, i) => `a${i}=${i}`).join(' ');
    const doc = parseHtml(Buffer.from(`<img ${attrs} src="x.png">`), DOC, null);
    assert.equal(doc.links.length, 1);
  });
});
