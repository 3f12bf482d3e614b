/**
 * Full-text search end to end: a crawl indexes each saved page's text as it goes, `harvest search`
 * finds it (the right page of a generated site for a phrase taken from its file; repetition ranking;
 * GBK and Shift_JIS pages by words in their own scripts; a PDF's text; NOT and phrases), and
 * `harvest reindex` rebuilds the same index from the WARC files and mirror alone.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import iconv from 'iconv-lite';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { extractZip } from '../helpers/zipReadBack.js';
import { tinyPdf } from '../helpers/tinyPdf.js';

interface Hit {
  url: string;
  title: string | null;
  capture: { id: number; date: string | null };
  snippet: string;
  score: number;
}
interface Answer {
  total: number;
  hits: Hit[];
}

const page = (title: string, body: string, meta = '<meta charset="utf-8">') =>
  `<!doctype html><html><head>${meta}<title>${title}</title></head><body>${body}</body></html>`;

/** Pages our own server serves, beside the generated site: what the generated site lacks. */
const EXTRA: Record<string, { type: string; body: Buffer }> = {
  '/': {
    type: 'text/html',
    body: Buffer.from(
      page('Extra', ['once.html', 'many.html', 'gbk.html', 'ja.html', 'minutes.pdf', 'notes.txt'].map((p) => `<a href="/${p}">${p}</a>`).join(' ')),
    ),
  },
  '/once.html': { type: 'text/html', body: Buffer.from(page('Once', '<p>The quillfeather manuscript was catalogued in the reading room.</p>')) },
  '/many.html': {
    type: 'text/html',
    body: Buffer.from(
      page('Many', '<p>Quillfeather manuscript.</p><p>A second quillfeather manuscript, a third quillfeather manuscript, and a ledger.</p>'),
    ),
  },
  '/gbk.html': { type: 'text/html; charset=gbk', body: iconv.encode(page('古籍', '<p>北京大学图书馆收藏了很多古籍善本。</p>', ''), 'gbk') },
  '/ja.html': {
    type: 'text/html',
    body: iconv.encode(page('新聞', '<p>東京都の図書館で古い新聞を保存しています。</p>', '<meta charset="shift_jis">'), 'shift_jis'),
  },
  '/minutes.pdf': { type: 'application/pdf', body: tinyPdf(['Minutes of the Zanzibar Philatelic Circle', 'read and approved'], 'Circle minutes') },
  '/notes.txt': { type: 'text/plain; charset=utf-8', body: Buffer.from('Notes on the marginalia of the ledger: ochre ink throughout.') },
};

describe('full-text search', { timeout: 300_000 }, () => {
  let work: string;
  let site: BenchSite;
  let server: Server;
  let extra: string;
  let archive: string;

  const search = async (...args: string[]): Promise<Answer> => {
    const r = await runHarvest(['search', archive, ...args, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Answer;
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-search-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    server = createServer((req, res) => {
      const p = EXTRA[(req.url ?? '/').split('?')[0]!];
      if (!p) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': p.type, 'Content-Length': p.body.length }).end(p.body);
    });
    extra = await listenOnLoopback(server);
    archive = path.join(work, 'archive');
    const r = await runHarvest(['crawl', `${site.origin}/`, `${extra}/`, '--out', archive, '--connections', '8', '--delay-ms', '0', '--quiet'], { timeoutMs: 240_000 });
    assert.equal(r.status, 0, r.stderr);
  });
  after(async () => {
    await site?.stop();
    server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('leaves a finished crawl\'s index compacted: one segment, no free pages, no side files', () => {
    const db = new Database(path.join(archive, 'text.sqlite'), { readonly: true });
    try {
      assert.equal(db.prepare('SELECT COUNT(DISTINCT segid) FROM text_fts_idx').pluck().get(), 1);
      assert.equal(db.pragma('freelist_count', { simple: true }), 0);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
    } finally {
      db.close();
    }
    assert.ok(!existsSync(path.join(archive, 'text.sqlite-wal')));
  });

  it('finds a phrase from a generated page on that page', async () => {
    const entry = site.manifest.pages.find((p) => p.url.startsWith('/news/') && p.url.endsWith('.html'))!;
    const html = readFileSync(path.join(site.dir, (entry as unknown as { file: string }).file), 'utf8');
    const para = /<p>([^<]{60,})<\/p>/.exec(html)![1]!;
    const phrase = para.split(/\s+/).slice(1, 7).join(' ').replace(/[.,]/g, '');
    const a = await search(`"${phrase}"`);
    assert.ok(a.total >= 1, phrase);
    assert.equal(new URL(a.hits[0]!.url).pathname, entry.url, `${phrase}: ${a.hits.map((h) => h.url).join(', ')}`);
    assert.match(a.hits[0]!.snippet, /<mark>/);
    assert.match(a.hits[0]!.capture.date!, /^\d{4}-\d\d-\d\dT/);
    assert.equal(a.hits[0]!.capture.id, 1);
  });

  it('ranks the page that repeats a phrase above the page that mentions it once', async () => {
    const a = await search('"quillfeather manuscript"');
    assert.deepEqual(a.hits.map((h) => h.url), [`${extra}/many.html`, `${extra}/once.html`]);
    assert.ok(a.hits[0]!.score > a.hits[1]!.score);
    assert.deepEqual(Object.keys(a.hits[0]!), ['url', 'title', 'capture', 'snippet', 'score']);
  });

  it('finds a GBK page and a Shift_JIS page by words in their own scripts', async () => {
    assert.deepEqual((await search('图书馆')).hits.map((h) => h.url), [`${extra}/gbk.html`]);
    assert.deepEqual((await search('古籍')).hits.map((h) => [h.url, h.title]), [[`${extra}/gbk.html`, '古籍']]);
    assert.deepEqual((await search('新聞')).hits.map((h) => h.url), [`${extra}/ja.html`]);
    assert.deepEqual((await search('図書館 保存')).hits.map((h) => h.url), [`${extra}/ja.html`]);
  });

  it("finds a PDF's text and a text file's", async () => {
    const a = await search('zanzibar philatelic', '--type', 'pdf');
    assert.deepEqual(a.hits.map((h) => [h.url, h.title]), [[`${extra}/minutes.pdf`, 'Circle minutes']]);
    assert.deepEqual((await search('marginalia')).hits.map((h) => h.url), [`${extra}/notes.txt`]);
    assert.equal((await search('marginalia', '--type', 'pdf')).total, 0);
  });

  it('NOT and phrase queries behave', async () => {
    assert.deepEqual((await search('quillfeather NOT ledger')).hits.map((h) => h.url), [`${extra}/once.html`]);
    assert.equal((await search('"manuscript quillfeather"')).total, 0);
    assert.equal((await search('manuscript quillfeather')).total, 2);
    assert.equal((await search('quillfeather OR zanzibar')).total, 3);
  });

  it('says what is wrong with a query, without an SQLite message', async () => {
    const r = await runHarvest(['search', archive, '"quillfeather manuscript', '--json']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unmatched quote/);
    assert.doesNotMatch(r.stderr, /sqlite|fts5/i);
  });

  it('reindex from the WARC files and mirror gives the same results as indexing during the crawl', async () => {
    const queries = ['"quillfeather manuscript"', 'quillfeather NOT ledger', '图书馆', '新聞', 'zanzibar', 'library', 'archive* NOT collection', '"annual report"'];
    const before = await Promise.all(queries.map((q) => search(q, '--limit', '100')));
    assert.ok(before.find((_, i) => queries[i] === 'library')!.total > 50, 'the generated site is indexed');
    const inode = statSync(path.join(archive, 'text.sqlite')).ino;
    const r = await runHarvest(['reindex', archive]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /indexed \d+ documents/);
    assert.notEqual(statSync(path.join(archive, 'text.sqlite')).ino, inode, 'a new index file');
    const afterReindex = await Promise.all(queries.map((q) => search(q, '--limit', '100')));
    // Hits of equal score may come in another order (their ids differ): compare them in URL order.
    const canonical = (a: Answer) => ({ total: a.total, hits: [...a.hits].sort((x, y) => y.score - x.score || x.url.localeCompare(y.url)) });
    assert.deepEqual(afterReindex.map(canonical), before.map(canonical));
  });

  it("writes each page's text into a WACZ's pages.jsonl, unless asked not to", async () => {
    const pagesOf = async (name: string, ...flags: string[]) => {
      const wacz = path.join(work, `${name}.wacz`);
      const r = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet', ...flags]);
      assert.equal(r.status, 0, r.stderr);
      const dest = path.join(work, name);
      await extractZip(wacz, dest);
      const lines = readFileSync(path.join(dest, 'pages', 'pages.jsonl'), 'utf8').trim().split('\n').slice(1);
      return lines.map((l) => JSON.parse(l) as { url: string; text?: string });
    };
    const withText = await pagesOf('with-text');
    assert.equal(withText.find((p) => p.url === `${extra}/ja.html`)?.text, '東京都の図書館で古い新聞を保存しています。');
    assert.match(withText.find((p) => p.url === `${extra}/many.html`)!.text!, /^Quillfeather manuscript\.\nA second/);
    assert.ok(withText.filter((p) => p.text).length > 100);
    const without = await pagesOf('without-text', '--no-page-text');
    assert.equal(without.length, withText.length);
    assert.ok(without.every((p) => p.text === undefined));
  });
});
