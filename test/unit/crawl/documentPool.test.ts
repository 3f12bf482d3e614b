import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DocumentPool } from '../../../electron/engine/crawl/documentPool.js';
import { unpackOriginal } from '../../../electron/engine/crawl/documents.js';

const PAGE = `<!doctype html><title>Home</title>
<a href="/about/">About</a> <a href="http://Example.org:80/news/#latest">News</a> <img src="logo.png">`;

describe('DocumentPool', () => {
  let dir: string;
  let pool: DocumentPool;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-docpool-'));
    mkdirSync(path.join(dir, 'tmp'));
    pool = new DocumentPool({ mirrorRoot: path.join(dir, 'mirror'), tmpDir: path.join(dir, 'tmp') }, 2);
    await pool.ready();
  });

  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses in a worker: title, links in order with their canonical URLs, and the original bytes', async () => {
    const body = Buffer.from(PAGE);
    const doc = await pool.prepare({ kind: 'html', body, url: 'http://example.org/', contentType: 'text/html', packOriginal: true });
    pool.discard(doc);
    assert.equal(doc.title, 'Home');
    assert.deepEqual(
      doc.links.map((l) => [l.kind, l.canonical, l.fragment]),
      [
        ['a', 'http://example.org/about/', ''],
        ['a', 'http://example.org/news/', 'latest'],
        ['img', 'http://example.org/logo.png', ''],
      ],
    );
    assert.deepEqual(unpackOriginal(doc.original!), body);
  });

  it('saves the copy with each reference pointing where it is told, or left absolute', async () => {
    const doc = await pool.prepare({ kind: 'html', body: Buffer.from(PAGE), url: 'http://example.org/', contentType: 'text/html', packOriginal: true });
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

  it('starts another worker only while every worker has a document in hand, and no more than its size', async () => {
    const own = new DocumentPool({ mirrorRoot: path.join(dir, 'mirror'), tmpDir: path.join(dir, 'tmp') }, 2);
    try {
      const req = { kind: 'html' as const, body: Buffer.from(PAGE), url: 'http://example.org/', contentType: 'text/html', packOriginal: false };
      const oneAtATime: number[] = [];
      for (let i = 0; i < 3; i++) {
        const doc = await own.prepare(req);
        own.discard(doc);
        oneAtATime.push(doc.worker);
      }
      assert.deepEqual(oneAtATime, [0, 0, 0], 'documents one at a time keep to the first worker');
      const together = await Promise.all(Array.from({ length: 8 }, () => own.prepare(req)));
      for (const doc of together) own.discard(doc);
      assert.deepEqual([...new Set(together.map((d) => d.worker))].sort(), [0, 1]);
    } finally {
      await own.close();
    }
  });

  it('forgets a discarded document: saving it afterwards is an error, not a stale copy', async () => {
    const doc = await pool.prepare({ kind: 'css', body: Buffer.from('a{background:url(x.png)}'), url: 'http://example.org/s.css', contentType: 'text/css', packOriginal: false });
    pool.discard(doc);
    assert.equal(doc.original, null, 'not deflated when not asked for');
    await assert.rejects(pool.save(doc, { localPath: 'example.org/s.css', written: [null] }), /no prepared document/);
  });
});
