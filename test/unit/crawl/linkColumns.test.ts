import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serialize, deserialize } from 'node:v8';
import type { PreparedLink } from '../../../electron/engine/crawl/documentWork.js';
import { linksFromColumns, linksToColumns } from '../../../electron/engine/crawl/linkColumns.js';

const LINKS: PreparedLink[] = [
  { url: 'http://example.org/a', fragment: '', kind: 'a', requisite: false, typeHint: 'html', text: 'A page', canonical: 'http://example.org/a' },
  { url: 'http://Example.org:80/b?y=2&x=1', fragment: 'top', kind: 'a', requisite: false, typeHint: null, text: '', canonical: 'http://example.org/b?x=1&y=2' },
  { url: 'http://example.org/s.css', fragment: '', kind: 'link', requisite: true, typeHint: 'css', text: '', canonical: 'http://example.org/s.css' },
  { url: 'http://[bad/', fragment: '', kind: 'img', requisite: true, typeHint: null, text: '', canonical: null },
];

describe('linkColumns', () => {
  it('gives back every link with every field, through a structured clone as between threads', () => {
    assert.deepEqual(linksFromColumns(deserialize(serialize(linksToColumns(LINKS)))), LINKS);
  });

  it('tells a canonical URL that is the URL itself from one that differs and from none', () => {
    const c = linksToColumns(LINKS);
    assert.deepEqual(c.canonical, ['', 'http://example.org/b?x=1&y=2', '', null]);
    assert.deepEqual(linksFromColumns(linksToColumns([])), []);
  });
});
