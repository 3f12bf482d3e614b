import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DocumentPool, type PreparedTicket } from '../../../electron/engine/crawl/documentPool.js';
import { unpackOriginal } from '../../../electron/engine/crawl/documents.js';
import { parseTemplate, type Template } from '../../../shared/template.js';

const PAGE = `<!doctype html><title>Home</title>
<a href="/about/">About</a> <a href="http://Example.org:80/news/#latest">News</a> <img src="logo.png">`;
const STYLE = { kind: 'css' as const, body: Buffer.from('a{background:url(x.png)}'), url: 'http://example.org/s.css', contentType: 'text/css', packOriginal: false };

// The same work, on the pool's own thread (its first documents, one at a time) and in a worker thread
// (once a document is held while another comes).
for (const where of ['own thread', 'worker thread'] as const) {
  describe(`DocumentPool, on the ${where}`, () => {
    let dir: string;
    let pool: DocumentPool;
    let held: PreparedTicket | null = null;
    const onItsSlot = (doc: PreparedTicket) => assert.equal(doc.worker === 0, where === 'own thread', `worked on slot ${doc.worker}`);

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'harvest-docpool-'));
      mkdirSync(path.join(dir, 'tmp'));
      pool = new DocumentPool({ mirrorRoot: path.join(dir, 'mirror'), tmpDir: path.join(dir, 'tmp') }, 2, 60_000);
      if (where === 'worker thread') held = await pool.prepare(STYLE);
      await pool.ready();
    });

    after(async () => {
      if (held) pool.discard(held);
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
      assert.equal(pool.threads, where === 'own thread' ? 0 : 1);
    });

    it('parses: title, links in order with their canonical URLs, and the original bytes', async () => {
      const body = Buffer.from(PAGE);
      const doc = await pool.prepare({ kind: 'html', body, url: 'http://example.org/', contentType: 'text/html', packOriginal: true });
      pool.discard(doc);
      onItsSlot(doc);
      assert.equal(doc.title, 'Home');
      // Every field of every link, as the slot found it: a worker sends them by column (linkColumns.ts).
      assert.deepEqual(doc.links, [
        { url: 'http://example.org/about/', fragment: '', kind: 'a', requisite: false, typeHint: 'html', text: 'About', canonical: 'http://example.org/about/' },
        { url: 'http://example.org/news/', fragment: 'latest', kind: 'a', requisite: false, typeHint: 'html', text: 'News', canonical: 'http://example.org/news/' },
        { url: 'http://example.org/logo.png', fragment: '', kind: 'img', requisite: true, typeHint: null, text: '', canonical: 'http://example.org/logo.png' },
      ]);
      assert.deepEqual(unpackOriginal(doc.original!), body);
    });

    it('saves the copy with each reference pointing where it is told, or left absolute', async () => {
      const doc = await pool.prepare({ kind: 'html', body: Buffer.from(PAGE), url: 'http://example.org/', contentType: 'text/html', packOriginal: true });
      onItsSlot(doc);
      const failure = await pool.save(doc, { localPath: 'example.org/index.html', written: ['example.org/about/index.html', null, 'example.org/logo.png'] });
      assert.equal(failure, null);
      const saved = readFileSync(path.join(dir, 'mirror', 'example.org', 'index.html'), 'utf8');
      assert.match(saved, /href="about\/index\.html"/);
      assert.match(saved, /href="http:\/\/example\.org\/news\/#latest"/);
      assert.match(saved, /src="logo\.png"/);
      assert.deepEqual(readdirSync(path.join(dir, 'tmp')), [], 'no temporary file is left');
    });

    it('writes other files as they are, from a view into a larger buffer', async () => {
      const backing = Buffer.from('xxPNGDATAxx');
      assert.equal(await pool.write('example.org/logo.png', backing.subarray(2, 9)), null);
      assert.equal(readFileSync(path.join(dir, 'mirror', 'example.org', 'logo.png'), 'utf8'), 'PNGDATA');
    });

    it('reports a name the file system refuses as a failure with its code', async () => {
      const failure = await pool.write(`example.org/${'n'.repeat(300)}.png`, Buffer.from('x'));
      assert.equal(failure?.code, 'ENAMETOOLONG');
    });

    it('forgets a discarded document: saving it afterwards is an error, not a stale copy', async () => {
      const doc = await pool.prepare(STYLE);
      pool.discard(doc);
      onItsSlot(doc);
      assert.equal(doc.original, null, 'not deflated when not asked for');
      await assert.rejects(pool.save(doc, { localPath: 'example.org/s.css', written: [null] }), /no prepared document/);
    });
  });
}

describe('DocumentPool: where documents go', () => {
  let dir: string;
  const data = () => ({ mirrorRoot: path.join(dir, 'mirror'), tmpDir: path.join(dir, 'tmp') });
  const page = { kind: 'html' as const, body: Buffer.from(PAGE), url: 'http://example.org/', contentType: 'text/html', packOriginal: false };

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-docpool-'));
    mkdirSync(path.join(dir, 'tmp'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts no thread while small documents come one at a time', async () => {
    // Its time budget widened: this is about documents one at a time, not the 50 ms (tested below).
    const pool = new DocumentPool(data(), 2, 60_000);
    try {
      const slots: number[] = [];
      for (let i = 0; i < 3; i++) {
        const doc = await pool.prepare(page);
        pool.discard(doc);
        slots.push(doc.worker);
      }
      assert.equal(await pool.write('example.org/a.png', Buffer.from('x')), null);
      assert.deepEqual(slots, [0, 0, 0]);
      assert.equal(pool.threads, 0);
    } finally {
      await pool.close();
    }
  });

  it('starts a worker once its own thread has spent 50 ms on requests, however they come', async () => {
    const pool = new DocumentPool(data(), 2);
    try {
      // Some 200 KB of links: each takes this thread several milliseconds.
      const heavy = { ...page, body: Buffer.from(`<!doctype html>${'<a href="/a/b/c/d">x</a>'.repeat(8_000)}`) };
      const slots: number[] = [];
      for (let i = 0; i < 40 && !slots.includes(1); i++) {
        const doc = await pool.prepare(heavy);
        pool.discard(doc);
        slots.push(doc.worker);
      }
      assert.equal(slots[0], 0);
      assert.equal(slots.at(-1), 1, `worked on ${slots.join(',')}`);
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  it('starts a worker for documents that overlap, gives it every later one, and starts no more workers than its size', async () => {
    const pool = new DocumentPool(data(), 2);
    try {
      const together = await Promise.all(Array.from({ length: 8 }, () => pool.prepare(page)));
      for (const doc of together) pool.discard(doc);
      assert.deepEqual([...new Set(together.map((d) => d.worker))].sort(), [0, 1, 2], 'the first on its own thread, the rest in two workers');
      assert.equal(pool.threads, 2);
      const later = await pool.prepare(page);
      pool.discard(later);
      assert.notEqual(later.worker, 0, 'once workers run, the own thread takes nothing new');
    } finally {
      await pool.close();
    }
  });

  it('sends a large document to a worker, even the first', async () => {
    const pool = new DocumentPool(data(), 2);
    try {
      const big = `<!doctype html><title>Big</title><p>${'word '.repeat(60_000)}</p>`;
      const doc = await pool.prepare({ ...page, body: Buffer.from(big) });
      pool.discard(doc);
      assert.equal(doc.title, 'Big');
      assert.equal(doc.worker, 1);
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  it('keeps a page too large to parse and a file over 1 MiB on its own thread: neither is copied to a worker', async () => {
    const pool = new DocumentPool(data(), 2);
    try {
      // Over the parser's 8 MiB: saved as it came, its link not followed (as parseHtml leaves it).
      const huge = Buffer.concat([Buffer.from('<!doctype html><title>Huge</title><a href="/next.html">next</a>'), Buffer.alloc(9 << 20, 'a')]);
      const doc = await pool.prepare({ ...page, body: huge, packOriginal: true });
      assert.deepEqual([doc.title, doc.links, doc.text, doc.textDigest], [null, [], null, null]);
      assert.deepEqual(unpackOriginal(doc.original!), huge);
      assert.equal(await pool.save(doc, { localPath: 'example.org/huge.html', written: [] }), null);
      assert.ok(readFileSync(path.join(dir, 'mirror', 'example.org', 'huge.html')).equals(huge), 'saved byte for byte');
      const file = Buffer.alloc(2 << 20, 'f');
      assert.equal(await pool.write('example.org/big.bin', file), null);
      assert.ok(readFileSync(path.join(dir, 'mirror', 'example.org', 'big.bin')).equals(file));
      assert.equal(pool.threads, 0, 'no worker was started for them');
      const dropped = await pool.prepare({ ...page, body: huge });
      pool.discard(dropped);
      await assert.rejects(pool.save(dropped, { localPath: 'example.org/dropped.html', written: [] }), /no prepared document/);
      assert.deepEqual(readdirSync(path.join(dir, 'tmp')), [], 'no temporary file is left');
    } finally {
      await pool.close();
    }
  });

  it("reads a file's text in a worker, never on its own thread", async () => {
    const pool = new DocumentPool(data(), 2);
    try {
      const text = await pool.fileText('text', Buffer.from('Minutes of the board, 1912.'), 'text/plain');
      assert.ok(text !== null);
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  it("keeps a focused crawl's document work off its own thread: cheerio loads in workers only", async () => {
    const pool = new DocumentPool({ ...data(), template: parseTemplate({ topic: { keywords: ['flood'] } }) }, 2);
    try {
      assert.equal(pool.threads, 1, 'its first worker starts at once');
      const doc = await pool.prepare(page);
      pool.discard(doc);
      assert.equal(doc.worker, 0);
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  it('fails each request with the cause when its work cannot be set up, and goes on', async () => {
    // A template without its parts: the page analyser can't be built.
    const pool = new DocumentPool({ ...data(), template: {} as Template }, 2);
    try {
      await assert.rejects(pool.prepare(page), TypeError);
      await assert.rejects(pool.prepare(page), TypeError);
      await assert.rejects(pool.ready(), TypeError);
    } finally {
      await pool.close();
    }
  });
});
