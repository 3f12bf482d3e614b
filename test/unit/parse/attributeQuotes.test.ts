import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { parseHtml } from '../../../electron/engine/parse/html.js';

/** Every start tag's attributes as a browser-grade tokenizer reads them back. */
function attributesOf(html: string): { name: string; attribs: Record<string, string> }[] {
  const tags: { name: string; attribs: Record<string, string> }[] = [];
  const parser = new Parser({ onopentag: (name, attribs) => tags.push({ name, attribs }) }, { decodeEntities: true });
  parser.end(html);
  return tags;
}

describe('rewriting an attribute that holds both quote kinds', () => {
  it('keeps the markup valid: the value reads back whole, with its quotes', () => {
    const source = `<p style="background:url(a.png);font-family:'Y', &quot;X&quot;" class="k">x</p>`;
    const out = parseHtml(Buffer.from(source), 'https://ex.com/dir/page.html', null)
      .render((l) => (l.url.endsWith('a.png') ? 'local/a.png' : null))
      .toString('utf8');
    const p = attributesOf(out).find((t) => t.name === 'p')!;
    assert.deepEqual(Object.keys(p.attribs), ['style', 'class']);
    assert.match(p.attribs.style!, /^background:url\((['"]?)local\/a\.png\1\);font-family:'Y', "X"$/);
    assert.equal(p.attribs.class, 'k');
  });
});
