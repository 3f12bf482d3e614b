import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { pdfText, plainText, textFileKind } from '../../../electron/engine/parse/fileText.js';
import { parseHtml } from '../../../electron/engine/parse/html.js';
import { MAX_TEXT_CHARS } from '../../../electron/engine/parse/pageText.js';
import { isUnspacedChar, markWordBreaks, mayBeUnspaced, WORD_BREAK, withoutWordBreaks } from '../../../electron/engine/parse/wordBreaks.js';
import { tinyPdf } from '../../helpers/tinyPdf.js';

const textOf = (html: string | Buffer, contentType = 'text/html') => {
  const doc = parseHtml(Buffer.isBuffer(html) ? html : Buffer.from(html), 'https://example.org/', contentType, {}, { withText: true });
  assert.ok(doc.text);
  return doc.text;
};

describe('page text', () => {
  it('keeps what a reader sees: body and headings, not scripts, styles, templates or the head', () => {
    const t = textOf(`<!doctype html><html><head><title>The  Title</title><style>p { color: red }</style>
      <script>var secret = "hidden";</script></head><body><h1>Main &amp; heading</h1><p>First <b>bold</b>word.</p>
      <template><p>not shown</p></template><noscript>enable js</noscript><div>Second</div><svg><title>tip</title><text>drawn</text></svg></body></html>`);
    assert.equal(t.title, 'The Title');
    assert.equal(t.headings, 'Main & heading');
    assert.equal(t.body, 'Main & heading\nFirst boldword.\nSecond\ndrawn');
    for (const hidden of ['secret', 'color', 'not shown', 'enable js', 'tip', 'The Title']) assert.ok(!t.body.includes(hidden), hidden);
  });

  it("makes each block a line and a text node's own newlines and controls spaces, whatever splits the text", () => {
    const t = textOf('<p>one\n  two\r\n\tthree</p> \n <div> a \u0001 b </div><p>\u00a0c</p><pre>x\ny</pre>&#xDFFF;');
    assert.equal(t.body, 'one two three\na b\nc\nx y\n\uFFFD');
    // A lone surrogate in the text itself (a UTF-16 page may hold one) is no line break.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>a\uDFFFb</p><p>c</p>', 'utf16le')]);
    assert.equal(textOf(utf16).body, 'a\uFFFDb\nc');
  });

  it('keeps at most MAX_TEXT_CHARS of text, counted with its white space collapsed', () => {
    // 100,000 characters raw, 40,000 collapsed ('a ' 20,000 times).
    const spaced = 'a    '.repeat(20_000);
    // Past the bound raw: cut where the bound falls, then collapsed to 'w ' for each run of ten kept.
    const long = 'w         '.repeat(60_000);
    const t = textOf(`<p>${spaced}</p><p>${long}</p><p>tail</p><p>${'x'.repeat(MAX_TEXT_CHARS)}</p><p>never</p>`);
    const second = 2 * Math.ceil((MAX_TEXT_CHARS - 40_000) / 10);
    assert.deepEqual(
      t.body.split('\n').map((line) => line.length),
      [40_000 - 1, second - 1, 4, MAX_TEXT_CHARS - 40_000 - second - 4],
    );
    assert.ok(!t.body.includes('never'));
  });

  it('is not built from a tree: a page nested 100,000 deep still gives its text', () => {
    const depth = 100_000;
    const t = textOf(`<body>${'<div>'.repeat(depth)}deep words${'</div>'.repeat(depth)}</body>`);
    assert.equal(t.body, 'deep words');
  });

  it('decodes the page first: GBK text comes out as Chinese with its words marked', () => {
    const html = iconv.encode('<html><head><meta charset="gbk"><title>图书馆</title></head><body><p>北京大学图书馆收藏了很多古籍善本</p></body></html>', 'gbk');
    const t = textOf(html);
    assert.equal(withoutWordBreaks(t.body), '北京大学图书馆收藏了很多古籍善本');
    assert.ok(t.body.split(WORD_BREAK).includes('古籍'), t.body);
  });

  it('marks Japanese words and leaves spaced scripts alone', () => {
    const marked = markWordBreaks('東京都の図書館で古い新聞を保存 café résumé');
    assert.ok(marked.split(/[\u200B ]/).includes('図書館'), marked);
    assert.ok(marked.split(/[\u200B ]/).includes('新聞'), marked);
    assert.ok(marked.endsWith(' café résumé'));
    assert.equal(withoutWordBreaks(marked), '東京都の図書館で古い新聞を保存 café résumé');
  });
});

describe('word breaks', () => {
  it('looks for unspaced runs in every text that has a character of those scripts, astral ones included', () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (isUnspacedChar(c) && !mayBeUnspaced(`text ${c}`)) missed.push(cp.toString(16));
    }
    assert.deepEqual(missed, []);
    const marked = markWordBreaks('東京都に住む');
    assert.ok(marked.includes(WORD_BREAK));
    assert.equal(withoutWordBreaks(marked), '東京都に住む');
  });

  it('skips Latin text, curly quotes, dashes and bullets included, without the script search', () => {
    const latin = 'It’s “quoted” — and • listed… naïve café, Ærø, ǅ ḉ';
    assert.equal(mayBeUnspaced(latin), false);
    assert.equal(markWordBreaks(latin), latin);
  });
});

describe('file text', () => {
  it('knows PDFs and text files by type, or by name when the type says nothing', () => {
    assert.equal(textFileKind('application/pdf', 'https://x.org/a'), 'pdf');
    assert.equal(textFileKind('text/plain; charset=utf-8', 'https://x.org/a'), 'text');
    assert.equal(textFileKind('application/octet-stream', 'https://x.org/r.PDF'), 'pdf');
    assert.equal(textFileKind('image/png', 'https://x.org/a.pdf'), null);
  });

  it('decodes plain text by its charset', () => {
    const t = plainText(iconv.encode('Überblick der Sammlung', 'latin1'), 'text/plain; charset=iso-8859-1');
    assert.equal(t.body, 'Überblick der Sammlung');
  });

  it("reads a PDF's text and title, and gives null for a damaged one", async () => {
    const t = await pdfText(tinyPdf(['Minutes of the Quillfeather Society', 'held in the reading room'], 'Society minutes'));
    assert.ok(t);
    assert.equal(t.title, 'Society minutes');
    assert.match(t.body, /Minutes of the Quillfeather Society\s+held in the reading room/);
    assert.equal(await pdfText(Buffer.from('%PDF-1.4 not really')), null);
  });
});
