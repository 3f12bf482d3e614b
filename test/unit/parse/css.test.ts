import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { findCssRefs, parseCss, type CssRef } from '../../../electron/engine/parse/css.js';
import { spliceCssRefs } from '../../../electron/engine/parse/cssScan.js';

const raws = (css: string): string[] => findCssRefs(css).map((r) => r.raw);

describe('findCssRefs', () => {
  it('finds url() quoted, unquoted and padded', () => {
    assert.deepEqual(raws(`a{background:url(a.png)} b{background:url('b.png')} c{background:URL( "c.png" )}`), [
      'a.png',
      'b.png',
      'c.png',
    ]);
  });

  it('gives the span of the URL as written, quotes included', () => {
    const css = `x{background:url( 'q.png' )} y{background:url(  u.png  )}`;
    const spans = findCssRefs(css).map((r) => css.slice(r.start, r.end));
    assert.deepEqual(spans, [`'q.png'`, 'u.png']);
  });

  it('decodes escapes', () => {
    assert.deepEqual(raws(String.raw`a{b:url(a\ b.png)} c{d:url("q\"uote.png")} e{f:url(\61 .png)}`), [
      'a b.png',
      'q"uote.png',
      'a.png',
    ]);
  });

  it('finds many urls per line in minified CSS', () => {
    const css = Array.from({ length: 50 }, (_, i) => `.i${i}{background:url(/img/${i}.png) no-repeat}`).join('');
    assert.equal(css.includes('\n'), false);
    assert.deepEqual(
      raws(css),
      Array.from({ length: 50 }, (_, i) => `/img/${i}.png`),
    );
  });

  it('handles @import with a string, a single-quoted string and url()', () => {
    const refs = findCssRefs(`@import "a.css";@import 'b.css' screen;@import url(c.css);@IMPORT url("d.css") layer(x);`);
    assert.deepEqual(
      refs.map((r) => [r.raw, r.kind]),
      [
        ['a.css', 'css-import'],
        ['b.css', 'css-import'],
        ['c.css', 'css-import'],
        ['d.css', 'css-import'],
      ],
    );
  });

  it('handles @font-face src lists with ?#iefix and format() strings', () => {
    const css = `@font-face{font-family:"F";src:url('f.eot');src:url('f.eot?#iefix') format('embedded-opentype'),url(f.woff2) format("woff2"),local("F")}`;
    assert.deepEqual(raws(css), ['f.eot', 'f.eot?#iefix', 'f.woff2']);
  });

  it('handles image-set() with bare strings and url()', () => {
    const css = `a{background-image:image-set("a.png" 1x, url(b.png) 2x, "c.avif" type("image/avif"));b:-webkit-image-set('d.png' 1x)}`;
    assert.deepEqual(raws(css), ['a.png', 'b.png', 'c.avif', 'd.png']);
  });

  it('skips data: URLs, empty urls, comments, plain strings and @namespace', () => {
    const css = `@namespace svg url(http://www.w3.org/2000/svg);/* url(commented.png) */a{content:"url(no.png)";b:url(data:image/png;base64,AAAA);c:url();d:url("")}e{f:url(yes.png)}`;
    assert.deepEqual(raws(css), ['yes.png']);
  });

  it('ignores bad urls and does not take identifiers ending in url', () => {
    assert.deepEqual(raws(`a{b:url(bad url.png);c:myurl(x.png);d:url(ok.png)}`), ['ok.png']);
  });

  it('is linear on hostile input', () => {
    const hostile = ['url('.repeat(50_000), '/*'.repeat(50_000), '"'.repeat(50_000), '('.repeat(100_000), '@import '.repeat(20_000)];
    for (const css of hostile) {
      const started = performance.now();
      findCssRefs(css);
      assert.ok(performance.now() - started < 2000, `took too long on ${css.slice(0, 10)}…`);
    }
  });
});

/** Rewrites each ref to map's result, as parseCss's render does. */
function rewriteCss(css: string, map: (raw: string, kind: CssRef['kind']) => string | null): string {
  const refs = findCssRefs(css);
  return spliceCssRefs(css, refs, refs.map((ref) => map(ref.raw, ref.kind)));
}

describe('spliceCssRefs', () => {
  it('replaces refs with quoted urls and leaves nulls as written', () => {
    const css = `a{background:url(a.png)}b{background:url( 'b.png' )}@import "c.css";`;
    const out = rewriteCss(css, (raw, kind) => (raw === 'b.png' ? null : `local/${raw}|${kind}`));
    assert.equal(out, `a{background:url("local/a.png|css-url")}b{background:url( 'b.png' )}@import "local/c.css|css-import";`);
  });

  it('escapes what would break the CSS string', () => {
    const out = rewriteCss('a{b:url(x.png)}', () => 'we"ird\\pa<th\n.png');
    assert.equal(out, String.raw`a{b:url("we\"ird\\pa\3c th\a .png")}`);
    assert.deepEqual(raws(out), ['we"ird\\pa<th\n.png']);
  });
});

describe('parseCss', () => {
  it('resolves links against the stylesheet URL', () => {
    const doc = parseCss(
      Buffer.from(`@import "base.css";a{background:url(../img/a.png#x)}@font-face{src:url(f.eot?#iefix)}`),
      'https://ex.com/css/site.css',
      'text/css',
    );
    assert.equal(doc.title, null);
    assert.deepEqual(
      doc.links.map((l) => [l.url, l.fragment, l.kind, l.requisite, l.typeHint]),
      [
        ['https://ex.com/css/base.css', '', 'css-import', true, 'css'],
        ['https://ex.com/img/a.png', 'x', 'css-url', true, null],
        ['https://ex.com/css/f.eot?', 'iefix', 'css-url', true, null],
      ],
    );
  });

  it('renders UTF-8 with @charset changed and nulls made absolute', () => {
    const body = iconv.encode('@charset "GBK";\na::before{content:"中文";background:url(a.png)}b{background:url(b.png)}', 'gbk');
    const doc = parseCss(body, 'https://ex.com/s.css', null);
    assert.equal(doc.charset, 'GBK');
    const out = doc.render((l) => (l.url.endsWith('a.png') ? 'a.png' : null)).toString('utf8');
    assert.equal(out, '@charset "utf-8";\na::before{content:"中文";background:url("a.png")}b{background:url("https://ex.com/b.png")}');
  });

  it('leaves unfetchable refs and same-sheet fragments as written', () => {
    const css = 'a{filter:url(#blur);b:url(javascript:x)}';
    const doc = parseCss(Buffer.from(css), 'https://ex.com/s.css', null);
    assert.equal(doc.links.length, 0);
    assert.equal(doc.render(() => 'x').toString(), css);
  });
});
