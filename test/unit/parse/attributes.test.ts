import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRefresh } from '../../../electron/engine/parse/metaRefresh.js';
import { parseSrcset, serializeSrcset } from '../../../electron/engine/parse/srcset.js';

describe('parseSrcset', () => {
  it('density descriptors', () => {
    assert.deepEqual(parseSrcset('a.png 1x, b.png 2x'), [
      { url: 'a.png', descriptors: '1x' },
      { url: 'b.png', descriptors: '2x' },
    ]);
  });

  it('width descriptors, odd whitespace', () => {
    assert.deepEqual(parseSrcset('  a.png   480w ,\n b.png\t800w  '), [
      { url: 'a.png', descriptors: '480w' },
      { url: 'b.png', descriptors: '800w' },
    ]);
  });

  it('URLs containing commas', () => {
    assert.deepEqual(parseSrcset('/img/a,b.png 1x, https://cdn.ex/c_1,w_200/d.jpg 2x'), [
      { url: '/img/a,b.png', descriptors: '1x' },
      { url: 'https://cdn.ex/c_1,w_200/d.jpg', descriptors: '2x' },
    ]);
  });

  it('a URL ending in a comma has no descriptors', () => {
    assert.deepEqual(parseSrcset('a.png,b.png 2x'), [{ url: 'a.png,b.png', descriptors: '2x' }]);
    assert.deepEqual(parseSrcset('a.png, b.png'), [
      { url: 'a.png', descriptors: '' },
      { url: 'b.png', descriptors: '' },
    ]);
  });

  it('a single URL, empty and comma-only values', () => {
    assert.deepEqual(parseSrcset('a.png'), [{ url: 'a.png', descriptors: '' }]);
    assert.deepEqual(parseSrcset(''), []);
    assert.deepEqual(parseSrcset(' , ,, '), []);
  });

  it('commas inside descriptor parentheses do not split', () => {
    assert.deepEqual(parseSrcset('a.png foo(1,2) 1x, b.png 2x'), [
      { url: 'a.png', descriptors: 'foo(1,2) 1x' },
      { url: 'b.png', descriptors: '2x' },
    ]);
  });

  it('serializes with ", " and protects spaces and edge commas in URLs', () => {
    assert.equal(
      serializeSrcset([
        { url: 'my file.png', descriptors: '1x' },
        { url: ',odd,', descriptors: '' },
      ]),
      'my%20file.png 1x, %2Codd%2C',
    );
  });
});

describe('parseRefresh', () => {
  const url = (content: string): string | null => parseRefresh(content)?.url ?? null;

  it('reads the usual forms', () => {
    assert.equal(url('0; url=next.html'), 'next.html');
    assert.equal(url('0;URL=next.html'), 'next.html');
    assert.equal(url("5; url='next.html'"), 'next.html');
    assert.equal(url('3, URL = "next.html" trailing'), 'next.html');
    assert.equal(url('0; next.html'), 'next.html');
    assert.equal(url('0.5 https://ex.com/x'), 'https://ex.com/x');
  });

  it('gives the span of the URL', () => {
    const content = "0; URL='next.html'";
    const target = parseRefresh(content);
    assert.ok(target);
    assert.equal(content.slice(target.start, target.end), 'next.html');
  });

  it('is null for a plain reload or a malformed value', () => {
    assert.equal(parseRefresh('30'), null);
    assert.equal(parseRefresh('30; '), null);
    assert.equal(parseRefresh('soon; url=x'), null);
    assert.equal(parseRefresh('5x; url=x'), null);
  });
});
