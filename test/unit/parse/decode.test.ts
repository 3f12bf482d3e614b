import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { charsetParam, decodeText, encodingForLabel, sniffCharset } from '../../../electron/engine/parse/decode.js';

const zh = '中文网页，欢迎光临';
const BOM8 = Buffer.from([0xef, 0xbb, 0xbf]);

function sniffAndDecode(body: Buffer, header: string | null, kind: 'html' | 'css' = 'html'): [string, string] {
  const charset = sniffCharset(body, header, kind);
  return [charset, decodeText(body, charset)];
}

describe('charsetParam', () => {
  it('reads the charset parameter, quoted or not, any case', () => {
    assert.equal(charsetParam('text/html; charset=UTF-8'), 'UTF-8');
    assert.equal(charsetParam('text/html;Charset="gb2312"'), 'gb2312');
    assert.equal(charsetParam('text/html; boundary=x; charset= big5 '), 'big5');
  });

  it('is null when absent or empty', () => {
    assert.equal(charsetParam(null), null);
    assert.equal(charsetParam('text/html'), null);
    assert.equal(charsetParam('text/html; charset='), null);
  });
});

describe('encodingForLabel', () => {
  it('maps labels to WHATWG encoding names', () => {
    assert.equal(encodingForLabel('gb2312'), 'GBK');
    assert.equal(encodingForLabel('ISO-8859-1'), 'windows-1252');
    assert.equal(encodingForLabel('latin1'), 'windows-1252');
    assert.equal(encodingForLabel('x-sjis'), 'Shift_JIS');
    assert.equal(encodingForLabel(' utf8 '), 'UTF-8');
  });

  it('is null for unknown labels', () => {
    assert.equal(encodingForLabel('no-such-charset'), null);
  });
});

describe('sniffCharset + decodeText for HTML', () => {
  it('GBK from <meta charset>', () => {
    const body = iconv.encode(`<html><head><meta charset="gbk"><title>${zh}</title>`, 'gbk');
    const [charset, text] = sniffAndDecode(body, 'text/html');
    assert.equal(charset, 'GBK');
    assert.ok(text.includes(zh));
  });

  it('gb2312 from <meta http-equiv=Content-Type> means GBK', () => {
    const body = iconv.encode(
      `<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>${zh}</p>`,
      'gbk',
    );
    const [charset, text] = sniffAndDecode(body, null);
    assert.equal(charset, 'GBK');
    assert.ok(text.includes(zh));
  });

  it('the HTTP header charset alone', () => {
    const body = iconv.encode(`<p>${zh}</p>`, 'gbk');
    assert.deepEqual(sniffAndDecode(body, 'text/html; charset=GB2312'), ['GBK', `<p>${zh}</p>`]);
  });

  it('the HTTP header beats a <meta>', () => {
    const body = iconv.encode(`<meta charset="utf-8"><p>${zh}</p>`, 'gbk');
    assert.equal(sniffCharset(body, 'text/html; charset=gbk', 'html'), 'GBK');
  });

  it('an unknown header label falls through to the <meta>', () => {
    const body = iconv.encode(`<meta charset=gbk><p>${zh}</p>`, 'gbk');
    assert.equal(sniffCharset(body, 'text/html; charset=bogus', 'html'), 'GBK');
  });

  it('a header naming x-user-defined is read as windows-1252, whatever the <meta> says', () => {
    const body = Buffer.from('<meta charset="utf-8"><p>caf\xe9</p>', 'latin1');
    assert.equal(sniffCharset(body, 'text/html; charset=x-user-defined', 'html'), 'windows-1252');
  });

  it('iso-8859-1 means windows-1252 (so 0x80 is the euro sign)', () => {
    const original = '<meta charset="iso-8859-1"><p>café € — ‘quoted’</p>';
    const [charset, text] = sniffAndDecode(iconv.encode(original, 'windows-1252'), null);
    assert.equal(charset, 'windows-1252');
    assert.equal(text, original);
  });

  it('windows-1252 keeps its five unassigned bytes as the C1 controls browsers show', () => {
    const body = Buffer.concat([Buffer.from('<p>'), Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d, 0x80]), Buffer.from('</p>')]);
    assert.equal(decodeText(body, 'windows-1252'), '<p>\u0081\u008d\u008f\u0090\u009d€</p>');
  });

  it('Big5', () => {
    const original = '<meta charset="big5"><p>繁體中文網頁</p>';
    assert.deepEqual(sniffAndDecode(iconv.encode(original, 'big5'), null), ['Big5', original]);
  });

  it('Shift_JIS', () => {
    const original = '<meta http-equiv="content-type" content="text/html;charset=Shift_JIS"><p>日本語のページ</p>';
    assert.deepEqual(sniffAndDecode(iconv.encode(original, 'shift_jis'), null), ['Shift_JIS', original]);
  });

  it('UTF-8 with a BOM beats a wrong header, and the BOM is dropped', () => {
    const body = Buffer.concat([BOM8, Buffer.from(`<p>${zh}</p>`)]);
    assert.deepEqual(sniffAndDecode(body, 'text/html; charset=iso-8859-1'), ['UTF-8', `<p>${zh}</p>`]);
  });

  it('UTF-16LE and UTF-16BE with a BOM', () => {
    const le = iconv.encode(`<p>${zh}</p>`, 'utf-16le', { addBOM: true });
    assert.deepEqual(sniffAndDecode(le, 'text/html; charset=utf-8'), ['UTF-16LE', `<p>${zh}</p>`]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(`<p>${zh}</p>`, 'utf-16be')]);
    assert.deepEqual(sniffAndDecode(be, null), ['UTF-16BE', `<p>${zh}</p>`]);
  });

  it('UTF-8 without any label or BOM is recognised as UTF-8', () => {
    assert.deepEqual(sniffAndDecode(Buffer.from(`<p>${zh}</p>`), 'text/html'), ['UTF-8', `<p>${zh}</p>`]);
  });

  it('unlabelled bytes that are not UTF-8 default to windows-1252', () => {
    assert.deepEqual(sniffAndDecode(iconv.encode('<p>café</p>', 'windows-1252'), null), ['windows-1252', '<p>café</p>']);
  });

  it('a <meta> after a long head comment is still found', () => {
    const body = iconv.encode(`<!--${'x'.repeat(3000)}--><meta charset="gbk"><p>${zh}</p>`, 'gbk');
    assert.equal(sniffCharset(body, null, 'html'), 'GBK');
  });

  it('a <meta> whose value runs across the first kilobyte is read whole', () => {
    const pad = 1024 - 'iso-8859-1'.length - '<!doctype html><!----><meta charset='.length;
    const body = Buffer.from(`<!doctype html><!--${'x'.repeat(pad)}--><meta charset=iso-8859-15><p>x</p>`, 'latin1');
    // The first kilobyte ends after 'iso-8859-1', a label that would read as windows-1252.
    assert.equal(body.subarray(0, 1024).toString('latin1').slice(-10), 'iso-8859-1');
    assert.equal(sniffCharset(body, null, 'html'), 'ISO-8859-15');
  });

  it('malformed bytes become U+FFFD instead of throwing', () => {
    assert.equal(decodeText(Buffer.from([0x61, 0xff, 0x62]), 'UTF-8'), 'a\uFFFDb');
  });
});

describe('sniffCharset for CSS', () => {
  it('uses the @charset rule', () => {
    const body = iconv.encode(`@charset "GB2312";\na::after{content:"${zh}"}`, 'gbk');
    const [charset, text] = sniffAndDecode(body, 'text/css', 'css');
    assert.equal(charset, 'GBK');
    assert.ok(text.includes(zh));
  });

  it('the header beats @charset, the BOM beats both', () => {
    assert.equal(sniffCharset(Buffer.from('@charset "gbk";'), 'text/css; charset=big5', 'css'), 'Big5');
    assert.equal(sniffCharset(Buffer.concat([BOM8, Buffer.from('@charset "gbk";')]), 'text/css; charset=big5', 'css'), 'UTF-8');
  });

  it('defaults to UTF-8, and reads @charset "utf-16" as UTF-8', () => {
    assert.equal(sniffCharset(Buffer.from('a{}'), null, 'css'), 'UTF-8');
    assert.equal(sniffCharset(Buffer.from('@charset "utf-16";a{}'), null, 'css'), 'UTF-8');
  });
});
