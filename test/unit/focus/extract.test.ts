import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { parseTemplate } from '../../../shared/template.js';
import { FieldExtractor } from '../../../electron/engine/focus/extract.js';
import { MAX_DOM_DEPTH, PageAnalyzer } from '../../../electron/engine/focus/pageAnalysis.js';
import { FocusTextCollector } from '../../../electron/engine/focus/pageText.js';
import { parseHtml } from '../../../electron/engine/parse/html.js';

const fields = parseTemplate({
  topic: { keywords: ['x'] },
  extract: {
    phone: { keywords: ['phone', 'tel'], synonyms: ['电话'], regex: '\\+?[0-9][0-9 ()\\-]{6,}[0-9]' },
    email: { keywords: ['email'], synonyms: ['邮箱'], regex: '[^@\\s]+@[^@\\s]+\\.[a-z]+' },
    fax: { keywords: ['fax'], synonyms: ['传真'] },
    address: { keywords: ['address'], synonyms: ['地址'] },
  },
}).extract;
const extractor = new FieldExtractor(fields);
const values = (html: string) => Object.fromEntries(extractor.extract(html).map((v) => [v.field, [v.value, v.confidence]]));

describe('field extraction', () => {
  it('takes the next cell of a header cell and the dd of a dt, with the tag weight as confidence', () => {
    assert.deepEqual(values('<table><tr><th>Phone</th><td>01632 960 123</td></tr><tr><td>Fax:</td><td>01632 960 124</td></tr></table>'), {
      phone: ['01632 960 123', 0.95],
      fax: ['01632 960 124', 0.9],
    });
    assert.deepEqual(values('<dl><dt>Address</dt><dd>12 High Street,<br>Springfield</dd></dl>'), { address: ['12 High Street, Springfield', 0.95] });
  });

  it('reads "Label: value" in running text up to the next label, in English and Chinese', () => {
    assert.deepEqual(values('<p>Tel: 01632 960 123 | Fax: 01632 960 124 | Email: a@b.example</p>'), {
      phone: ['01632 960 123', 0.8],
      email: ['a@b.example', 0.8],
      fax: ['01632 960 124', 0.8],
    });
    assert.deepEqual(values('<p>联系电话：010-6512 3456　传真：010-6512 3457<br>地址：北京市东城区长安街1号</p>'), {
      phone: ['010-6512 3456', 0.8],
      fax: ['010-6512 3457', 0.8],
      address: ['北京市东城区长安街1号', 0.8],
    });
  });

  it('takes the text after a bold label, and a label with a word more ("Phone number") but never a value as a label', () => {
    assert.deepEqual(values('<p><strong>Phone number:</strong> 01632 960 555</p>'), { phone: ['01632 960 555', 0.9] });
    assert.deepEqual(values('<div><span>Phone</span> <span>01632 960 555</span></div>'), { phone: ['01632 960 555', 0.85] });
    assert.deepEqual(values('<div><span>传真</span> <span>010-6512 3457</span></div><div><span>地址</span> <span>北京市</span></div>'), { fax: ['010-6512 3457', 0.85], address: ['北京市', 0.85] });
  });

  it('keeps a regex match only, and finds a regex value no label names outside the page chrome', () => {
    assert.deepEqual(values('<table><tr><th>Email</th><td>write to <a href="mailto:x@y.example">x@y.example</a> today</td></tr></table>'), {
      email: ['x@y.example', 0.95],
    });
    assert.deepEqual(values('<header>Updated 2025-03-01 12</header><main><p>Call 01632 960 777 any time.</p></main>'), { phone: ['01632 960 777', 0.5] });
    assert.deepEqual(values('<header><p>Phone 2025 0301 12</p></header><main><p>No numbers here.</p></main>'), {});
  });

  it('keeps every value labels give, the surest first, one a line; structured data alone where it gives the field', () => {
    assert.deepEqual(values('<p>Phone: 01632 000 000</p><table><tr><th>Phone</th><td>01632 960 123</td></tr></table>'), { phone: ['01632 960 123\n01632 000 000', 0.95] });
    assert.deepEqual(values('<p>Phone: 01632 000 000 or 01632 000 001. Call 01632 000 002</p>'), { phone: ['01632 000 000\n01632 000 001\n01632 000 002', 0.8] });
    assert.deepEqual(values('<div itemscope itemtype="https://schema.org/Organization"><span itemprop="telephone">01632 960 123</span></div><p>Phone: 01632 000 000</p>'), {
      phone: ['01632 960 123', 1],
    });
  });

  it('never takes a label as a value, and reads a column of cells under a row of labels', () => {
    assert.deepEqual(values('<dl><dt>Fax</dt><dt>Phone</dt><dd>01632 960 123</dd></dl>'), { phone: ['01632 960 123', 0.95] });
    assert.deepEqual(values('<table><tr><th>Phone</th><th>Email</th></tr><tr><td>01632 960 123</td><td>a@b.example</td></tr><tr><td>01632 960 124</td><td>c@d.example</td></tr></table>'), {
      phone: ['01632 960 123\n01632 960 124', 0.95],
      email: ['a@b.example\nc@d.example', 0.95],
    });
  });

  it('takes the longest of a pattern\'s alternatives where it matches', () => {
    const postcode = new FieldExtractor(parseTemplate({ topic: { keywords: ['x'] }, extract: { postcode: { keywords: ['postcode'], regex: '[0-9]{5}|[0-9]{6}' } } }).extract);
    assert.deepEqual(postcode.extract('<p>Postcode: 100086</p>'), [{ field: 'postcode', value: '100086', confidence: 0.8 }]);
    assert.deepEqual(postcode.extract('<p>Postcode: 90210</p>'), [{ field: 'postcode', value: '90210', confidence: 0.8 }]);
  });
});

describe('page text', () => {
  it('collects the title and the body without links, navigation, header, footer, scripts and styles', () => {
    const text = new FocusTextCollector();
    parseHtml(
      Buffer.from(
        '<html><head><title>Flood &amp; risk</title><style>p{}</style></head><body><header>Site</header><nav><a href="/">Home</a> Menu</nav>' +
          '<h1>Floods</h1><p>Check the <a href="/maps">maps</a> today.<script>var x</script></p><td>Phone</td><td>123</td><footer>©</footer></body></html>',
      ),
      'http://a.test/',
      'text/html',
      {},
      { observer: text },
    );
    const r = text.result();
    assert.equal(r.title, 'Flood & risk');
    assert.deepEqual(r.text.split(/\s+/).filter(Boolean), ['Floods', 'Check', 'the', 'today.', 'Phone', '123']);
  });

  it('measures element nesting: deep nesting counts, unclosed paragraphs, cells and void elements do not', () => {
    const depth = (html: string) => {
      const text = new FocusTextCollector();
      parseHtml(Buffer.from(html), 'http://a.test/', 'text/html', {}, { observer: text });
      return text.maxDepth;
    };
    assert.equal(depth('<html><body><div><section><p>a<p>b<br><img src=x></section></div></body></html>'), 4);
    assert.equal(depth('<body>' + '<p>x'.repeat(5000) + '<table>' + '<tr><td>1'.repeat(2000) + '</table></body>'), 2);
    assert.equal(depth('<div>'.repeat(3000) + 'Phone: 01632 960 123'), 3000);
  });
});

describe('page analysis', () => {
  const analyzer = new PageAnalyzer(parseTemplate({ topic: { keywords: ['x'] }, extract: fields }));
  const analyze = (html: string) => {
    const text = analyzer.collector();
    const doc = parseHtml(Buffer.from(html), 'http://a.test/', 'text/html', {}, { observer: text });
    return analyzer.analyze(text, doc.links, Buffer.from(html), 'utf-8', { level: 0, extract: true }).fields;
  };

  it('reads fields on final pages and on relevant pages of any level, not on other pages', () => {
    const filtered = new PageAnalyzer(parseTemplate({ topic: { keywords: ['contact'], threshold: 0.3 }, filters: [['contact']], extract: fields }));
    const at = (level: number, html: string) => {
      const text = filtered.collector();
      const doc = parseHtml(Buffer.from(html), 'http://a.test/', 'text/html', {}, { observer: text });
      return filtered.analyze(text, doc.links, Buffer.from(html), 'utf-8', { level, extract: true }).fields;
    };
    const phone = [{ field: 'phone', value: '01632 960 123', confidence: 0.8 }];
    assert.deepEqual(at(0, '<h1>Contact us</h1><p>Phone: 01632 960 123</p>'), phone);
    assert.deepEqual(at(0, '<h1>Opening hours</h1><p>Phone: 01632 960 123</p>'), null);
    assert.deepEqual(at(1, '<h1>Opening hours</h1><p>Phone: 01632 960 123</p>'), phone);
  });

  it(`reads fields on a DOM only up to ${MAX_DOM_DEPTH} levels of nesting (deeper, building the DOM would take seconds)`, () => {
    const nested = (n: number) => '<div>'.repeat(n) + '<table><tr><th>Phone</th><td>01632 960 123</td></tr></table>' + '</div>'.repeat(n);
    assert.deepEqual(analyze(nested(MAX_DOM_DEPTH - 3)), [{ field: 'phone', value: '01632 960 123', confidence: 0.95 }]);
    assert.deepEqual(analyze(nested(20_000)), []);
  });
});

describe('a regex alone, over a long page', () => {
  it('finds a value anywhere on a long line, whole, never a piece of it cut at a window edge', () => {
    const emails = new FieldExtractor(parseTemplate({ topic: { keywords: ['x'] }, extract: { email: { keywords: ['email'], regex: '[^@\\s]+@[^@\\s]+\\.[a-z]+' } } }).extract);
    for (const at of [0, 100, 150, 160, 250, 255, 256, 1000, 4000]) {
      const text = 'x'.repeat(at) + ' someone.long-name@library.example.org ' + 'y'.repeat(500);
      assert.deepEqual(
        emails.extract(`<p>${text}</p>`).map((v) => v.value),
        ['someone.long-name@library.example.org'],
        `at ${at}`,
      );
    }
  });

  it("runs the README's e-mail pattern over 300 kB of text without spaces in linear time", () => {
    // On a backtracking engine over the whole page this is quadratic (minutes), and it blocks the
    // thread it runs on: so it runs in a child, ended if it hangs.
    const module = pathToFileURL(path.resolve(import.meta.dirname, '../../../electron/engine/focus/extract.js')).href;
    const template = pathToFileURL(path.resolve(import.meta.dirname, '../../../shared/template.js')).href;
    const script = `
      const { FieldExtractor } = await import(${JSON.stringify(module)});
      const { parseTemplate } = await import(${JSON.stringify(template)});
      const e = new FieldExtractor(parseTemplate({ topic: { keywords: ['x'] }, extract: { email: { keywords: ['email'], regex: '[^@\\\\s]+@[^@\\\\s]+' } } }).extract);
      console.log(JSON.stringify(e.extract('<p>' + '图书馆'.repeat(100000) + '</p>')));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.signal, null, 'the extraction hung');
    assert.equal(child.stdout.trim(), '[]', child.stderr);
  });
});
