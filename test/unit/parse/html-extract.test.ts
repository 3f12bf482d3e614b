import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHtml, type ExtractedLink } from '../../../electron/engine/parse/html.js';

const DOC = 'https://ex.com/dir/page.html';

function links(html: string, docUrl = DOC): ExtractedLink[] {
  return parseHtml(Buffer.from(html), docUrl, 'text/html; charset=utf-8').links;
}

/** [kind, url] pairs, the most common assertion. */
function found(html: string, docUrl = DOC): [string, string][] {
  return links(html, docUrl).map((l) => [l.kind, l.url]);
}

const abs = (path: string): string => new URL(path, DOC).href;

describe('parseHtml extraction', () => {
  it('a and area, navigation with html hint and anchor text', () => {
    const [a, area] = links(
      '<a href="one.html" title="t">  Hello \n <b>world</b>  </a><map><area href="two.html" alt="Region"></map>',
    );
    assert.deepEqual(a, { url: abs('one.html'), fragment: '', kind: 'a', requisite: false, typeHint: 'html', text: 'Hello world' });
    assert.deepEqual(area, { url: abs('two.html'), fragment: '', kind: 'area', requisite: false, typeHint: 'html', text: 'Region' });
  });

  it('anchor text falls back to an inner img alt, then the title, and is capped at 200 chars', () => {
    const [img, titled, long] = links(
      `<a href="a"><img src="i.png" alt="Logo"></a><a href="b" title="Tip"></a><a href="c">${'x'.repeat(500)}</a>`,
    ).filter((l) => l.kind === 'a');
    assert.equal(img?.text, 'Logo');
    assert.equal(titled?.text, 'Tip');
    assert.equal(long?.text.length, 200);
  });

  it('anchor text skips script and style contents and ends at the next <a> when </a> is missing', () => {
    const [first, second] = links('<a href="1">One<script>var x = "no";</script><a href="2">Two');
    assert.equal(first?.text, 'One');
    assert.equal(second?.text, 'Two');
  });

  it('link rel decides requisite and hint', () => {
    const html = [
      '<link rel="stylesheet" href="s.css">',
      '<link rel="alternate stylesheet" href="alt.css">',
      '<link rel="shortcut icon" href="/favicon.ico">',
      '<link rel="apple-touch-icon" href="/touch.png">',
      '<link rel="preload" as="style" href="p.css">',
      '<link rel="preload" as="font" href="f.woff2">',
      '<link rel="manifest" href="/site.webmanifest">',
      '<link rel="next" href="page2.html">',
      '<link rel="alternate" type="application/rss+xml" href="/feed">',
      '<link rel="preconnect" href="https://fonts.gstatic.com">',
      '<link rel="dns-prefetch" href="//cdn.ex.com">',
    ].join('');
    assert.deepEqual(
      links(html).map((l) => [l.url, l.requisite, l.typeHint]),
      [
        [abs('s.css'), true, 'css'],
        [abs('alt.css'), true, 'css'],
        [abs('/favicon.ico'), true, null],
        [abs('/touch.png'), true, null],
        [abs('p.css'), true, 'css'],
        [abs('f.woff2'), true, null],
        [abs('/site.webmanifest'), true, null],
        [abs('page2.html'), false, null],
        [abs('/feed'), false, null],
      ],
    );
    assert.ok(links(html).every((l) => l.kind === 'link'));
  });

  it('images, srcset and picture sources', () => {
    assert.deepEqual(
      found(
        '<img src="a.png" srcset="a.png 1x, a@2x.png 2x"><picture><source srcset="w.webp 480w, w2.webp 800w" type="image/webp"><img src="p.jpg"></picture><input type="image" src="go.png">',
      ),
      [
        ['img', abs('a.png')],
        ['srcset', abs('a.png')],
        ['srcset', abs('a@2x.png')],
        ['picture-source', abs('w.webp')],
        ['picture-source', abs('w2.webp')],
        ['img', abs('p.jpg')],
        ['img', abs('go.png')],
      ],
    );
  });

  it('script, frames, media, track, poster, object, embed, backgrounds, SVG images', () => {
    const html = [
      '<script src="app.js"></script>',
      '<iframe src="frame.html"></iframe><frameset><frame src="f.html"></frameset>',
      '<video src="v.mp4" poster="poster.jpg"><source src="v.webm"><track src="subs.vtt"></video>',
      '<audio src="a.mp3"></audio>',
      '<object data="movie.swf"></object><embed src="e.swf">',
      '<body background="bg.gif"><table background="t.gif"><tr><td background="td.gif"></td></tr></table>',
      '<svg><image href="s.png"/><use xlink:href="icons.svg#home"/></svg>',
    ].join('');
    assert.deepEqual(found(html), [
      ['script', abs('app.js')],
      ['iframe', abs('frame.html')],
      ['frame', abs('f.html')],
      ['media', abs('v.mp4')],
      ['poster', abs('poster.jpg')],
      ['media', abs('v.webm')],
      ['track', abs('subs.vtt')],
      ['media', abs('a.mp3')],
      ['object', abs('movie.swf')],
      ['embed', abs('e.swf')],
      ['img', abs('bg.gif')],
      ['img', abs('t.gif')],
      ['img', abs('td.gif')],
      ['img', abs('s.png')],
      ['img', abs('icons.svg')],
    ]);
    const byKind = new Map(links(html).map((l) => [l.kind, l]));
    assert.equal(byKind.get('iframe')?.typeHint, 'html');
    assert.equal(byKind.get('frame')?.typeHint, 'html');
    assert.ok(links(html).every((l) => l.requisite));
  });

  it('meta refresh', () => {
    assert.deepEqual(links('<meta http-equiv="Refresh" content="0; URL=\'/moved.html#top\'">'), [
      { url: abs('/moved.html'), fragment: 'top', kind: 'meta-refresh', requisite: false, typeHint: 'html', text: '' },
    ]);
    assert.deepEqual(links('<meta http-equiv="refresh" content="30">'), []);
  });

  it('style attributes and <style> blocks', () => {
    const html =
      '<style>@import url(print.css); .a{background:url(a.png)}.b{background:url("b.png")}</style><div style="background:url(&quot;c.png&quot;)"></div>';
    assert.deepEqual(
      links(html).map((l) => [l.kind, l.url, l.typeHint]),
      [
        ['style-block', abs('print.css'), 'css'],
        ['style-block', abs('a.png'), null],
        ['style-block', abs('b.png'), null],
        ['style-attr', abs('c.png'), null],
      ],
    );
  });

  it('lazy-loading attributes', () => {
    assert.deepEqual(
      found(
        '<img data-src="l1.png" data-srcset="l2.png 1x, l3.png 2x"><img data-original="l4.png"><div data-bg="l5.png"></div><div data-bg="url(\'l6.png\')"></div>',
      ),
      [
        ['lazy', abs('l1.png')],
        ['lazy', abs('l2.png')],
        ['lazy', abs('l3.png')],
        ['lazy', abs('l4.png')],
        ['lazy', abs('l5.png')],
        ['lazy', abs('l6.png')],
      ],
    );
  });

  it('skips javascript:, mailto:, tel:, data:, empty refs and same-page fragments', () => {
    const html =
      '<a href="javascript:void(0)">j</a><a href=" JavaScript:alert(1)">j</a><a href="mailto:a@b">m</a><a href="tel:123">t</a><img src="data:image/png;base64,AA"><a href="">e</a><a href="  ">s</a><a href="#top">f</a><a href="ftp://ex.com/f">ftp</a><a href="ok.html">ok</a>';
    assert.deepEqual(found(html), [['a', abs('ok.html')]]);
  });

  it('decodes entities in attributes, removes the fragment, does not canonicalise', () => {
    const [link] = links('<a href="list?page=2&amp;sort=asc&copy=1#Part&amp;2">x</a>');
    assert.equal(link?.url, 'https://ex.com/dir/list?page=2&sort=asc&copy=1');
    assert.equal(link?.fragment, 'Part&2');
    assert.equal(links('<a href="/A/./b/../C?b=2&a=1">x</a>')[0]?.url, 'https://ex.com/A/C?b=2&a=1');
  });

  it('takes the first of duplicate attributes, as browsers do', () => {
    assert.deepEqual(found('<img src="first.png" src="second.png">'), [['img', abs('first.png')]]);
  });

  it('reads the title, entities decoded, whitespace collapsed, not from SVG', () => {
    const title = (html: string): string | null => parseHtml(Buffer.from(html), DOC, null).title;
    assert.equal(title('<svg><title>icon</title></svg><title>\n  Tom &amp; Jerry  </title>'), 'Tom & Jerry');
    assert.equal(title('<p>no title</p>'), null);
  });

  it('keeps the order of appearance, duplicates included', () => {
    assert.deepEqual(
      found('<a href="x.html">1</a><img src="i.png"><a href="x.html">2</a>').map(([, url]) => url),
      [abs('x.html'), abs('i.png'), abs('x.html')],
    );
  });
});

describe('parseHtml base href', () => {
  it('root-relative base', () => {
    assert.deepEqual(found('<base href="/root/"><a href="x.html">x</a>'), [['a', 'https://ex.com/root/x.html']]);
  });

  it('absolute base on another host', () => {
    assert.deepEqual(found('<base href="https://cdn.ex.org/b/"><img src="i.png"><a href="/top">t</a>'), [
      ['img', 'https://cdn.ex.org/b/i.png'],
      ['a', 'https://cdn.ex.org/top'],
    ]);
  });

  it('relative base, resolved against the document', () => {
    assert.deepEqual(found('<base href="../other/"><a href="x.html">x</a>'), [['a', 'https://ex.com/other/x.html']]);
  });

  it('applies to links before it, only the first base counts, and a fragment then points at the base', () => {
    assert.deepEqual(found('<a href="early.html">e</a><base href="/one/"><base href="/two/"><a href="#sec">s</a>'), [
      ['a', 'https://ex.com/one/early.html'],
      ['a', 'https://ex.com/one/'],
    ]);
  });

  it('an unparsable base falls back to the document URL', () => {
    assert.deepEqual(found('<base href="http://[bad"><a href="x.html">x</a>'), [['a', abs('x.html')]]);
  });
});

describe('parseHtml caps', () => {
  it('every reference is extracted and rewritten, however many a page has (the crawl caps what it queues)', () => {
    const html = Array.from({ length: 20_005 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join('');
    const doc = parseHtml(Buffer.from(html), DOC, null);
    assert.equal(doc.links.length, 20_005);
    const out = doc.render(() => 'local.html').toString();
    assert.ok(!out.includes('<a href="p20004.html">'));
    assert.equal(out.split('local.html').length - 1, 20_005);
  });

  it('maxAttrLength ignores over-long URL attributes', () => {
    const long = `/${'a'.repeat(100)}.png`;
    assert.deepEqual(parseHtml(Buffer.from(`<img src="${long}"><img src="s.png">`), DOC, null, { maxAttrLength: 50 }).links.length, 1);
  });

  it('maxParseBytes saves bigger pages unparsed', () => {
    const body = Buffer.from('<title>t</title><a href="x.html">x</a>');
    const doc = parseHtml(body, DOC, null, { maxParseBytes: 10 });
    assert.deepEqual(doc.links, []);
    assert.equal(doc.title, null);
    assert.deepEqual(doc.render(() => 'y'), body);
  });
});
