import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { cleanText } from '../../../electron/engine/parse/pageText.js';
import { MARK_END, MARK_START, matchesFromBm25, packText, SearchError, TextIndex, type TextKind } from '../../../electron/engine/store/textIndex.js';

describe('text index', () => {
  let dir: string;
  let index: TextIndex;
  let nextId = 1;
  const put = (url: string, body: string, opts: { title?: string; headings?: string; kind?: TextKind; capture?: number } = {}) =>
    index.add({
      urlId: nextId++,
      url,
      capture: opts.capture ?? 1,
      kind: opts.kind ?? 'html',
      fetchedAt: '2026-01-02T03:04:05.000Z',
      text: packText({ title: cleanText(opts.title ?? ''), headings: cleanText(opts.headings ?? ''), body: cleanText(body) }),
    });

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-textindex-'));
    index = TextIndex.openWritable(TextIndex.fileIn(dir));
    put('https://x.org/once', 'The catalogue mentions the quillfeather ledger once, among other things of the library.');
    put('https://x.org/many', 'Quillfeather ledger. The quillfeather ledger again; a quillfeather ledger and one more quillfeather ledger.');
    put('https://x.org/reverse', 'A ledger of quillfeather feathers and archive boxes.');
    put('https://x.org/cafe', 'Le café de la bibliothèque ouvre à huit heures.', { title: 'Café' });
    put('https://x.org/ja', '東京都の図書館で古い新聞を保存しています。');
    put('https://x.org/report.pdf', 'Annual report of the Quillfeather Society', { kind: 'pdf' });
    put('https://x.org/many?ref=nav', 'Quillfeather ledger. The quillfeather ledger again; a quillfeather ledger and one more quillfeather ledger.');
    put('https://x.org/heading', 'Opening hours and other matters.', { headings: 'Manuscripts reading room' });
    put('https://x.org/body', 'There is a manuscripts section, and a reading room somewhere else in this rather long text about opening hours.');
    index.close({ optimize: true });
    index = TextIndex.openReadonly(dir)!;
  });
  after(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const urls = (q: string, opts = {}) => index.search(q, { limit: 20, ...opts }).hits.map((h) => h.url);

  it('ranks the page that repeats a phrase above the one that mentions it once, one hit per distinct text', () => {
    const r = index.search('"quillfeather ledger"', { limit: 20 });
    assert.deepEqual(r.hits.map((h) => h.url), ['https://x.org/many', 'https://x.org/once']);
    assert.equal(r.total, 2);
    assert.equal(r.hits[0]!.sameText, 1, 'the ?ref=nav copy is the same text');
    assert.ok(r.hits[0]!.score > r.hits[1]!.score);
    assert.ok(r.hits[1]!.snippet.includes(`${MARK_START}quillfeather ledger${MARK_END}`), r.hits[1]!.snippet);
  });

  it('phrases keep word order; AND does not', () => {
    assert.ok(!urls('"quillfeather ledger"').includes('https://x.org/reverse'));
    assert.ok(urls('quillfeather ledger').includes('https://x.org/reverse'));
  });

  it('NOT leaves out pages with the word', () => {
    assert.deepEqual(urls('quillfeather NOT ledger').sort(), ['https://x.org/report.pdf']);
    assert.deepEqual(urls('quillfeather NOT (ledger OR society)'), []);
  });

  it('folds diacritics and matches prefixes', () => {
    assert.deepEqual(urls('cafe'), ['https://x.org/cafe']);
    assert.deepEqual(urls('BIBLIOTHEQUE'), ['https://x.org/cafe']);
    assert.deepEqual(urls('biblio*'), ['https://x.org/cafe']);
    assert.match(index.search('biblio* OR heures', { limit: 20 }).hits[0]!.snippet, new RegExp(`${MARK_START}bibliothèque${MARK_END}.*${MARK_START}heures${MARK_END}`));
    assert.deepEqual(urls('biblio'), []);
  });

  it('finds Japanese by its words', () => {
    assert.deepEqual(urls('図書館'), ['https://x.org/ja']);
    assert.deepEqual(urls('新聞 保存'), ['https://x.org/ja']);
    assert.deepEqual(urls('京都'), [], 'not a word of this text');
  });

  it('weighs headings above body text', () => {
    assert.deepEqual(urls('manuscripts reading'), ['https://x.org/heading', 'https://x.org/body']);
  });

  it('filters by type and capture', () => {
    assert.deepEqual(urls('quillfeather', { kind: 'pdf' }), ['https://x.org/report.pdf']);
    assert.deepEqual(urls('quillfeather', { capture: 2 }), []);
  });

  it('ranks every match up to rankMax, past it the newest texts, and always counts them all', () => {
    // quillfeather: /once, /many (and its ?ref=nav copy), /reverse, /report.pdf, indexed in that order.
    const all = index.search('quillfeather', { limit: 20 });
    assert.deepEqual([all.total, all.ranked, all.hits.length], [4, 4, 4]);
    const exactlyMax = index.search('quillfeather', { limit: 20, rankMax: 4 });
    assert.deepEqual([exactlyMax.total, exactlyMax.ranked], [4, 4]);
    const capped = index.search('quillfeather', { limit: 20, rankMax: 2 });
    assert.deepEqual([capped.total, capped.ranked], [4, 2]);
    assert.deepEqual(capped.hits.map((h) => h.url).sort(), ['https://x.org/report.pdf', 'https://x.org/reverse']);
    assert.ok(capped.hits[0]!.score >= capped.hits[1]!.score);
    const pastTheEnd = index.search('quillfeather', { limit: 20, offset: 10 });
    assert.deepEqual([pastTheEnd.total, pastTheEnd.hits.length], [4, 0]);
  });

  it('reports a bad query as a SearchError naming the problem', () => {
    assert.throws(() => index.search('"quillfeather', { limit: 5 }), (e: unknown) => e instanceof SearchError && /unmatched quote/.test(e.message));
  });

  it('gives back a page text as a reader sees it, and leaves no side files once closed', () => {
    assert.equal(index.textOf('https://x.org/ja'), '東京都の図書館で古い新聞を保存しています。');
    assert.equal(index.textOf('https://x.org/none'), null);
    assert.ok(!existsSync(TextIndex.fileIn(dir) + '-wal'));
  });
});

describe('a text index searched while its writer closes it', () => {
  it('closes (a crawl ending) while a reader has it open, which goes on finding what was written', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'harvest-textreader-'));
    try {
      const writer = TextIndex.openWritable(TextIndex.fileIn(dir));
      writer.add({ urlId: 1, url: 'https://z.org/', capture: 1, kind: 'html', fetchedAt: null, text: packText({ title: '', headings: '', body: cleanText('the quillfeather ledger') }) });
      writer.flush();
      const reader = TextIndex.openReadonly(dir)!;
      try {
        assert.equal(reader.search('quillfeather', { limit: 5 }).total, 1);
        writer.close({ optimize: true });
        assert.equal(reader.search('quillfeather', { limit: 5 }).total, 1);
      } finally {
        reader.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the total of a phrase matched by more texts than are ranked', () => {
  let dir: string;
  let index: TextIndex;

  // 40 texts of different lengths: "red fox" in 6 (3 of them PDFs, 3 with it in the title too), both
  // words apart in the rest; "grey wolf" in 30, more than half.
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-phrasetotal-'));
    const writer = TextIndex.openWritable(TextIndex.fileIn(dir));
    for (let i = 1; i <= 40; i++) {
      const body = [`page ${i}`, 'more words '.repeat(i % 9), i % 6 === 0 ? 'the red fox runs' : 'a fox is red', i <= 30 ? 'grey wolf' : 'wolf, grey'].join(' ');
      const title = i % 12 === 0 ? 'Red fox' : `Page ${i}`;
      writer.add({
        urlId: i,
        url: `https://y.org/${i}`,
        capture: 1,
        kind: i % 4 === 0 ? 'pdf' : 'html',
        fetchedAt: null,
        text: packText({ title: cleanText(title), headings: '', body: cleanText(body) }),
      });
    }
    writer.close({ optimize: true });
    index = TextIndex.openReadonly(dir)!;
  });
  after(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const totals = (q: string, opts: { kind?: TextKind; offset?: number } = {}) => {
    const r = index.search(q, { limit: 20, rankMax: 2, ...opts });
    return [r.total, r.ranked];
  };

  it('is exact whether bm25 counted the matches (a phrase in under half the texts) or they are counted', () => {
    assert.deepEqual(totals('"red fox"'), [6, 2]);
    assert.deepEqual(totals('"grey wolf"'), [30, 2]);
    assert.deepEqual(totals('"red fox"', { kind: 'pdf' }), [3, 2], 'filtered: bm25 counted the unfiltered matches');
    assert.deepEqual(totals('"red fox"', { offset: 10 }), [6, 2], 'past the last page');
    assert.deepEqual(totals('red fox'), [40, 2], 'two words, two phrases');
  });

  it("reads SQLite's bm25 as it scores: the count from any matching row, none past half the texts", () => {
    const db = new Database(TextIndex.fileIn(dir), { readonly: true });
    try {
      const scores = db.prepare('SELECT bm25(text_fts, 8.0, 3.0, 1.0) AS score, bm25(text_fts, 16.0, 6.0, 2.0) AS doubled FROM text_fts WHERE text_fts MATCH ?');
      const counts = (phrase: string) => (scores.all(phrase) as { score: number; doubled: number }[]).map((r) => matchesFromBm25(r.score, r.doubled, 40));
      assert.deepEqual(counts('"red fox"'), [6, 6, 6, 6, 6, 6]);
      assert.deepEqual(counts('"grey wolf"'), Array(30).fill(null));
    } finally {
      db.close();
    }
  });
});
