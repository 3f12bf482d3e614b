import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DocumentPool } from '../../electron/engine/crawl/documentPool.js';
import { finalizeMirror } from '../../electron/engine/crawl/finalize.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { linkcheck, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const DOCUMENTS_SQL = "SELECT COUNT(*) AS n FROM urls WHERE state = 'archived' AND (content_type LIKE 'text/html%' OR content_type LIKE 'text/css%')";

function count(file: string, sql: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * The finishing pass rewrites a saved copy from its original bytes when a guessed reference turned
 * out wrong (the bench site's redirects and 404s make some). With a WARC those bytes are read back
 * from the response record; without one the catalogue keeps them.
 */
describe('originals for the finishing rewrite pass', () => {
  let work: string;
  let site: BenchSite;
  const archives: Record<'warc' | 'noWarc', string> = { warc: '', noWarc: '' };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-originals-'));
    site = await startBenchSite({ pages: 150, workDir: work, compress: true });
    for (const [name, extra] of [['warc', []], ['noWarc', ['--no-warc']]] as const) {
      archives[name] = path.join(work, name);
      const r = await runHarvest(['crawl', `${site.origin}/`, '--out', archives[name], '--quiet', '--delay-ms', '0', ...extra]);
      assert.equal(r.status, 0, r.stderr);
    }
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  function assertWorksOffline(archive: string): void {
    const lc = linkcheck(path.join(archive, 'mirror'), path.join(site.dir, 'manifest.json'), path.join(work, `${path.basename(archive)}.json`));
    assert.equal(lc.coverage.pages, lc.coverage.pagesTotal);
    assert.equal(lc.links.brokenArchivable, 0, lc.links.examples.broken.join('\n'));
    assert.equal(lc.links.escapedArchivable, 0, lc.links.examples.escaped.join('\n'));
  }

  it('with a WARC, every saved document keeps only a place in it (revisits that of the first capture), and the mirror works offline', () => {
    const catalogue = path.join(archives.warc, 'catalogue.sqlite');
    const documents = count(catalogue, DOCUMENTS_SQL);
    assert.ok(documents > 150);
    assert.equal(count(catalogue, 'SELECT COUNT(*) AS n FROM original_records'), documents);
    assert.equal(count(catalogue, 'SELECT COUNT(*) AS n FROM originals'), 0);
    assertWorksOffline(archives.warc);
  });

  it('without a WARC, the catalogue keeps every original deflated, and the mirror works offline the same', () => {
    const catalogue = path.join(archives.noWarc, 'catalogue.sqlite');
    const documents = count(catalogue, DOCUMENTS_SQL);
    assert.equal(count(catalogue, 'SELECT COUNT(*) AS n FROM originals'), documents);
    assert.equal(count(catalogue, 'SELECT COUNT(*) AS n FROM original_records'), 0);
    assertWorksOffline(archives.noWarc);
  });

  it('a damaged record leaves its copy as first written, says so in the URL log, and the other copies are rewritten', async () => {
    const catalogue = path.join(archives.warc, 'catalogue.sqlite');
    // Two saved documents with references the pass keeps an eye on; both made to look stale.
    const db = new Database(catalogue);
    const [damaged, intact] = db
      .prepare(
        `SELECT l.from_id AS id, r.file, r.offset, r.length FROM links l JOIN original_records r ON r.url_id = l.from_id
         GROUP BY l.from_id ORDER BY l.from_id LIMIT 2`,
      )
      .all() as { id: number; file: string; offset: number; length: number }[];
    assert.ok(damaged && intact, 'two documents with link rows');
    db.prepare("UPDATE links SET written = 'nowhere/guessed.html' WHERE from_id IN (?, ?)").run(damaged.id, intact.id);
    db.close();
    const warcFile = path.join(archives.warc, 'warc', damaged.file);
    const bytes = readFileSync(warcFile);
    const middle = damaged.offset + Math.floor(damaged.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(warcFile, bytes);

    const archive = Archive.open(archives.warc);
    const pool = new DocumentPool({ mirrorRoot: archive.mirror.root, tmpDir: archive.mirror.tmpDir });
    try {
      await pool.ready();
      assert.equal(await finalizeMirror(archive, pool), 1, 'the intact document rewritten, the damaged one left as it was');
    } finally {
      await pool.close();
      archive.close();
    }
    const check = new Database(catalogue, { readonly: true });
    try {
      const error = (id: number) => (check.prepare('SELECT error FROM urls WHERE id = ?').get(id) as { error: string | null }).error;
      assert.match(error(damaged.id) ?? '', /^original not rewritten: cannot read the record at .*warc\.gz:\d+/);
      assert.equal(error(intact.id), null);
      const guesses = (id: number) => (check.prepare("SELECT COUNT(*) AS n FROM links WHERE from_id = ? AND written = 'nowhere/guessed.html'").get(id) as { n: number }).n;
      assert.ok(guesses(damaged.id) > 0, 'the damaged copy keeps its rows as they were');
      assert.equal(guesses(intact.id), 0, 'the intact copy was rewritten from its record');
    } finally {
      check.close();
    }
  });
});

describe('a revisit whose first capture was sent with another Content-Encoding', () => {
  let work: string;
  let server: Server;
  let origin: string;
  const page = '<!doctype html><title>Opening hours</title><p>Reading room hours.</p><a href="/moved">Visit</a>';
  const gzipped = gzipSync(page);

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-revisit-encoding-'));
    server = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Home</title><a href="/hours.gz">file</a> <a href="/hours.html">page</a>');
      } else if (req.url === '/hours.gz') {
        // The same bytes as a plain download: recorded first, with no Content-Encoding.
        res.writeHead(200, { 'Content-Type': 'application/gzip' }).end(gzipped);
      } else if (req.url === '/hours.html') {
        // Sent later, so its record is the revisit.
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(gzipped), 300);
      } else if (req.url === '/moved') {
        // Predicted as moved.html, so the page's copy is rewritten once the redirect is known.
        res.writeHead(302, { Location: '/visit.html' }).end();
      } else if (req.url === '/visit.html') {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Visit</title>');
      } else res.writeHead(404).end();
    });
    origin = await listenOnLoopback(server);
  });

  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('rewrites the page from the shared payload, decoded as the page itself was sent', async () => {
    const archive = path.join(work, 'archive');
    const r = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(r.status, 0, r.stderr);
    const db = new Database(path.join(archive, 'catalogue.sqlite'), { readonly: true });
    try {
      const stored = db
        .prepare("SELECT r.content_encoding FROM original_records r JOIN urls u ON u.id = r.url_id WHERE u.url = ?")
        .get(`${origin}/hours.html`) as { content_encoding: string | null } | undefined;
      assert.deepEqual(stored, { content_encoding: 'gzip' });
    } finally {
      db.close();
    }
    const site = readdirSync(path.join(archive, 'mirror')).find((f) => f.startsWith('127.0.0.1'))!;
    const copy = readFileSync(path.join(archive, 'mirror', site, 'hours.html'), 'utf8');
    assert.match(copy, /Reading room hours/);
    assert.match(copy, /href="visit\.html"/, 'rewritten once the redirect was known');
  });
});
