import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { parseHtml, type ExtractedLink } from '../../../electron/engine/parse/html.js';

const DOC = 'https://ex.com/dir/page.html';

function render(html: string | Buffer, map: (link: ExtractedLink) => string | null, header: string | null = null): string {
  const body = typeof html === 'string' ? Buffer.from(html) : html;
  return parseHtml(body, DOC, header).render(map).toString('utf8');
}

const all = (href: string) => (): string => href;
const none = (): null => null;

describe('render: references', () => {
  it('rewrites some links locally and makes the rest absolute (with their fragment)', () => {
    const html =
      '<!DOCTYPE html><html><head><title>t</title></head><body><a href="a.html#s1">A</a><a href=b.html#s2>B</a><img src=\'i.png\'></body></html>';
    const out = render(html, (l) => (l.url.endsWith('a.html') ? 'local/a.html#s1' : l.url.endsWith('.png') ? 'img/i.png' : null));
    assert.equal(
      out,
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><a href="local/a.html#s1">A</a><a href="https://ex.com/dir/b.html#s2">B</a><img src="img/i.png"></body></html>',
    );
  });

  it('calls map once per link, in order', () => {
    const doc = parseHtml(Buffer.from('<a href="1">1</a><img srcset="2 1x, 3 2x"><a href="4">4</a>'), DOC, null);
    const seen: string[] = [];
    doc.render((l) => {
      seen.push(l.url.slice(-1));
      return null;
    });
    assert.deepEqual(seen, ['1', '2', '3', '4']);
  });

  it('srcset: each candidate rewritten, descriptors kept, joined with ", "', () => {
    const out = render('<img srcset="a.png 1x,b,c.png 2x , d.png 480w">', (l) =>
      l.url.endsWith('d.png') ? null : `local/${l.url.split('/').pop() ?? ''}`,
    );
    assert.equal(out, '<head><meta charset="utf-8"></head><img srcset="local/a.png 1x, local/b,c.png 2x, https://ex.com/dir/d.png 480w">');
  });

  it('srcset: unfetchable candidates are kept as they were', () => {
    const out = render('<img srcset="data:image/gif;base64,R0 1x, b.png 2x">', all('b.png'));
    assert.ok(out.includes('srcset="data:image/gif;base64,R0 1x, b.png 2x"'));
  });

  it('keeps entities valid in rewritten attributes', () => {
    const out = render('<a href="x?a=1&amp;b=2">x</a><a href="y?c=3&amp;d=4">y</a>', (l) =>
      l.url.includes('x?') ? 'x-a=1&b=2.html' : null,
    );
    assert.ok(out.includes('<a href="x-a=1&amp;b=2.html">'));
    assert.ok(out.includes('<a href="https://ex.com/dir/y?c=3&amp;d=4">'));
  });

  it('rewrites CSS in style attributes and blocks', () => {
    const out = render(
      '<style>.a{background:url(a.png)}@import "i.css";</style><p style="background: url(\'p.png\')">x</p>',
      (l) => (l.url.endsWith('i.css') ? null : `l/${l.url.split('/').pop() ?? ''}`),
    );
    assert.ok(out.includes('<style>.a{background:url("l/a.png")}@import "https://ex.com/dir/i.css";</style>'));
    assert.ok(out.includes(`<p style='background: url("l/p.png")'>`));
  });

  it('rewrites meta refresh keeping its delay', () => {
    const out = render('<head><meta http-equiv="refresh" content="5; url=next.html"></head>', all('next-local.html'));
    assert.ok(out.includes('<meta http-equiv="refresh" content="5; url=next-local.html">'));
  });

  it('rewrites lazy attributes', () => {
    const out = render('<img data-src="l.png"><div data-bg="url(b.png)"></div>', all('x.png'));
    assert.ok(out.includes('<img data-src="x.png">'));
    assert.ok(out.includes(`<div data-bg='url("x.png")'>`));
  });

  it('leaves unextracted references untouched', () => {
    const html = '<a href="mailto:a@b">m</a><a href="javascript:go()">j</a><a href="#top">t</a>';
    assert.equal(render(html, all('x')), `<head><meta charset="utf-8"></head>${html}`);
  });
});

describe('render: document handling', () => {
  it('removes <base href> (keeping a base target) so local links resolve from the file', () => {
    assert.equal(
      render('<head><base href="/x/"><a href="a">a</a>', all('a.html')),
      '<head><meta charset="utf-8"><a href="a.html">a</a>',
    );
    assert.ok(render('<head><base target="_blank" href="/x/">', none).includes('<base target="_blank" >'));
  });

  it('replaces every charset declaration with one <meta charset="utf-8"> first in <head>', () => {
    const out = render(
      '<html><head lang="en"><title>x</title><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><META CHARSET="latin1"></head></html>',
      none,
    );
    assert.equal(out, '<html><head lang="en"><meta charset="utf-8"><title>x</title></head></html>');
  });

  it('creates a head when there is none: after <html>, after the doctype, or at the start', () => {
    assert.equal(render('<html><p>x</p></html>', none), '<html><head><meta charset="utf-8"></head><p>x</p></html>');
    assert.equal(render('<!doctype html><p>x</p>', none), '<!doctype html><head><meta charset="utf-8"></head><p>x</p>');
    assert.equal(render('<p>x</p>', none), '<head><meta charset="utf-8"></head><p>x</p>');
  });

  it('adds a UTF-8 BOM when the meta would land past the 1024-byte prescan window', () => {
    const out = parseHtml(Buffer.from(`<!--${'x'.repeat(2000)}--><html><head><title>t</title>`), DOC, null).render(none);
    assert.deepEqual([...out.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.ok(!render('<head>', none).startsWith('\uFEFF'));
  });

  it('removes integrity and crossorigin only where the target became local', () => {
    const html =
      '<head><link rel="stylesheet" href="s.css" integrity="sha384-abc" crossorigin="anonymous"><script src="https://cdn.ex/lib.js" integrity="sha384-def" crossorigin></script></head>';
    const out = render(html, (l) => (l.url.endsWith('s.css') ? 's.css' : null));
    assert.ok(out.includes('<link rel="stylesheet" href="s.css"  >'));
    assert.ok(out.includes('<script src="https://cdn.ex/lib.js" integrity="sha384-def" crossorigin></script>'));
  });

  it('keeps doctype, comments, scripts, entities and unknown markup byte-for-byte', () => {
    const html = [
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
      '<html><head><!--[if lt IE 9]><script src="html5shiv.js"></script><![endif]-->',
      '<script>if (a < b && c > d) { document.write("<a href=\'x\'>"); }</script>',
      '</head><body><p class=x>&nbsp;&copy; 2024 &lt;tag&gt; &amp; &#8212; caf&eacute;</p>',
      '<input disabled value=\'a "b"\'><br/><custom-el foo=bar></custom-el></body></html>',
    ].join('\n');
    const out = render(html, none);
    assert.equal(out.replace('<meta charset="utf-8">', ''), html);
  });

  it('keeps non-ASCII text as characters, not entities', () => {
    const out = render('<head><title>Ünïcödé 中文</title></head><p>日本語 — ok</p><a href="ä.html">ä</a>', all('ä-local.html'));
    assert.ok(out.includes('<title>Ünïcödé 中文</title>'));
    assert.ok(out.includes('<p>日本語 — ok</p>'));
    assert.ok(out.includes('<a href="ä-local.html">ä</a>'));
  });

  it('can render more than once', () => {
    const doc = parseHtml(Buffer.from('<a href="a">a</a>'), DOC, null);
    assert.ok(doc.render(all('one.html')).toString().includes('one.html'));
    assert.ok(doc.render(all('two.html')).toString().includes('two.html'));
  });
});

describe('render: charset round trips', () => {
  const roundTrip = (body: Buffer, header: string | null, expectedCharset: string, text: string): void => {
    const doc = parseHtml(body, DOC, header);
    assert.equal(doc.charset, expectedCharset);
    const out = doc.render(none);
    const utf8 = out.toString('utf8');
    assert.ok(utf8.includes(text), `rendered copy lacks ${text}`);
    assert.ok(!utf8.includes('\uFFFD'));
    // The copy declares UTF-8 and nothing else, so a browser opening it from disk agrees.
    assert.equal(parseHtml(out, 'file:///x.html', null).charset, 'UTF-8');
    assert.equal(utf8.match(/charset/gi)?.length, 1);
  };

  it('GBK via <meta charset>', () => {
    const zh = '中文网页，欢迎光临';
    roundTrip(iconv.encode(`<html><head><meta charset="gbk"><title>${zh}</title></head><body><a href="?q=新闻">${zh}</a>`, 'gbk'), null, 'GBK', zh);
  });

  it('gb2312 via http-equiv', () => {
    const zh = '简体中文';
    roundTrip(
      iconv.encode(`<head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head><p>${zh}</p>`, 'gbk'),
      null,
      'GBK',
      zh,
    );
  });

  it('header-only charset', () => {
    roundTrip(iconv.encode('<p>中文</p>', 'gbk'), 'text/html; charset=gbk', 'GBK', '中文');
  });

  it('windows-1252 labelled iso-8859-1', () => {
    roundTrip(iconv.encode('<meta charset="ISO-8859-1"><p>café € “smart”</p>', 'windows-1252'), null, 'windows-1252', 'café € “smart”');
  });

  it('Big5', () => {
    roundTrip(iconv.encode('<meta charset="big5"><p>繁體中文網頁</p>', 'big5'), null, 'Big5', '繁體中文網頁');
  });

  it('Shift_JIS', () => {
    roundTrip(iconv.encode('<meta charset="shift_jis"><p>日本語のページ</p>', 'shift_jis'), null, 'Shift_JIS', '日本語のページ');
  });

  it('UTF-8 BOM against a wrong header', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<meta charset="iso-8859-1"><p>Ωmega</p>')]);
    roundTrip(body, 'text/html; charset=iso-8859-1', 'UTF-8', 'Ωmega');
  });

  it('UTF-16LE with BOM', () => {
    roundTrip(iconv.encode('<p>Ωmega 中文</p>', 'utf-16le', { addBOM: true }), null, 'UTF-16LE', 'Ωmega 中文');
  });

  it('a GBK page encodes non-ASCII queries in GBK, as browsers request them', () => {
    const doc = parseHtml(iconv.encode('<meta charset="gbk"><a href="s?q=中文#片段">x</a>', 'gbk'), DOC, null);
    assert.equal(doc.links[0]?.url, 'https://ex.com/dir/s?q=%D6%D0%CE%C4');
    assert.equal(doc.links[0]?.fragment, '%E7%89%87%E6%AE%B5');
  });
});
