import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalize, encodePathSegment } from '../../../electron/engine/url/canonical.js';

describe('canonicalize', () => {
  it('lowercases scheme and host, drops the trailing dot of the host and default ports', () => {
    assert.equal(canonicalize('HTTP://Example.ORG.:80/Path'), 'http://example.org/Path');
    assert.equal(canonicalize('https://example.org:443/'), 'https://example.org/');
    assert.equal(canonicalize('https://example.org:8443/'), 'https://example.org:8443/');
    assert.equal(canonicalize('http://example.org:443/'), 'http://example.org:443/');
  });

  it('converts international host names to punycode', () => {
    assert.equal(canonicalize('http://Bücher.example/'), 'http://xn--bcher-kva.example/');
  });

  it('removes dot segments, including percent-encoded ones, and backslashes count as slashes', () => {
    assert.equal(canonicalize('http://h/a/./b/../c'), 'http://h/a/c');
    assert.equal(canonicalize('http://h/a/%2e%2E/b'), 'http://h/b');
    assert.equal(canonicalize('http://h/../../x'), 'http://h/x');
    assert.equal(canonicalize('http://h\\a\\b'), 'http://h/a/b');
  });

  it('removes the fragment and an empty query, keeps the query in order', () => {
    assert.equal(canonicalize('http://h/p?b=2&a=1#top'), 'http://h/p?b=2&a=1');
    assert.equal(canonicalize('http://h/p?'), 'http://h/p');
    assert.equal(canonicalize('http://h/p?#x'), 'http://h/p');
    assert.equal(canonicalize('http://h/p#'), 'http://h/p');
  });

  it('drops one "?" that opens the query, whether or not the rest needs escaping', () => {
    assert.equal(canonicalize('http://h/??a'), 'http://h/?a');
    assert.equal(canonicalize('http://h/??a~'), 'http://h/?a~');
    assert.equal(canonicalize('http://h/??a%7E'), 'http://h/?a~');
  });

  it('gives an empty path the root', () => {
    assert.equal(canonicalize('http://h'), 'http://h/');
    assert.equal(canonicalize('http://h?q=1'), 'http://h/?q=1');
  });

  it('decodes escaped unreserved characters and upper-cases the other escapes', () => {
    assert.equal(canonicalize('http://h/%7euser/%41%2d%5f%2e%7E'), 'http://h/~user/A-_.~');
    assert.equal(canonicalize('http://h/a%2fb%3d%c3%a9'), 'http://h/a%2Fb%3D%C3%A9');
    assert.equal(canonicalize('http://h/?q=%7e%2f%3d&r=%c3%a9'), 'http://h/?q=~%2F%3D&r=%C3%A9');
  });

  it('encodes what must be encoded and leaves reserved characters as written', () => {
    assert.equal(canonicalize('http://h/a b/é|[x]^'), 'http://h/a%20b/%C3%A9%7C%5Bx%5D%5E');
    assert.equal(canonicalize('http://h/100%'), 'http://h/100%25');
    assert.equal(canonicalize('http://h/%zz?q=%'), 'http://h/%25zz?q=%25');
    assert.equal(canonicalize("http://h/a=b;c,d:e@f!$&'()*+"), "http://h/a=b;c,d:e@f!$&'()*+");
    assert.equal(canonicalize('http://h/?a=b c&d=/?:@'), 'http://h/?a=b%20c&d=/?:@');
  });

  it('makes equivalent spellings coincide', () => {
    const spellings = [
      'http://example.org/~user/a%20b',
      'HTTP://EXAMPLE.ORG:80/%7Euser/a b',
      'http://example.org./%7euser/./x/../a%20b#frag',
      '  http://example.org/~us\ter/a%20b\n',
    ];
    const canonical = new Set(spellings.map((s) => canonicalize(s)));
    assert.equal(canonical.size, 1);
  });

  it('keeps distinct resources distinct', () => {
    const urls = ['http://h/a=b', 'http://h/a%3Db', 'http://h/a/b', 'http://h/a%2Fb', 'http://h/p?a=1&b=2', 'http://h/p?b=2&a=1'];
    assert.equal(new Set(urls.map((u) => canonicalize(u))).size, urls.length);
  });

  it('trims surrounding whitespace and strips tabs and newlines inside', () => {
    assert.equal(canonicalize(' \n http://h/a\tb\nc\r\n '), 'http://h/abc');
    assert.equal(canonicalize('\u00a0http://h/x\u00a0'), 'http://h/x');
  });

  it('resolves relative references against the base', () => {
    const base = 'http://example.org/a/b/page.html?x=1';
    assert.equal(canonicalize('../c/d.html', base), 'http://example.org/a/c/d.html');
    assert.equal(canonicalize('?y=2', base), 'http://example.org/a/b/page.html?y=2');
    assert.equal(canonicalize('#part', base), 'http://example.org/a/b/page.html?x=1');
    assert.equal(canonicalize('//Other.example/x', base), 'http://other.example/x');
    assert.equal(canonicalize('/root', base), 'http://example.org/root');
  });

  it('returns null for other schemes and for unparsable input', () => {
    for (const input of [
      'mailto:someone@example.org',
      'tel:+441234',
      'javascript:void(0)',
      'data:text/plain,hi',
      'ftp://example.org/',
      'file:///etc/passwd',
      'http://',
      'http://exa mple.org/',
      'not a url',
      '',
      'http://./',
    ]) {
      assert.equal(canonicalize(input), null, input);
    }
    assert.equal(canonicalize('x', 'not a base'), null);
    assert.equal(canonicalize('mailto:a@b', 'http://h/'), null);
  });

  it('is idempotent', () => {
    for (const input of [
      'HTTP://Example.ORG.:80/a/../%7e/%2e%2e/x%2fy%zz?q=%7e&&r=a b#f',
      'http://h/é/ü?ß=ö',
      "http://h/a=b;c,d:e@f!$&'()*+[]|^`{}",
      'http://h/%2E%2E%2E/%2e.x/',
      'http://[::1]:8080/a',
    ]) {
      const once = canonicalize(input);
      assert.ok(once);
      assert.equal(canonicalize(once), once, input);
    }
  });
});

describe('encodePathSegment', () => {
  it('writes a segment the way canonicalize does', () => {
    for (const text of ['a b', 'é', '100%', 'a/b', 'a=b:c', '~x', '[x]']) {
      const segment = encodePathSegment(text);
      assert.ok(!segment.slice(1).includes('/'));
      assert.equal(canonicalize(`http://h/${segment}`), `http://h/${segment}`, text);
      assert.equal(decodeURIComponent(segment), text);
    }
  });
});
