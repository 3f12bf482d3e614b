import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../../electron/engine/store/schema.js';
import { ArchiveFormatError, ArchiveInUseError, Catalogue, type NewUrl } from '../../../electron/engine/store/catalogue.js';
import { WRITER_CACHE_KIB } from '../../../electron/engine/store/sqlite/sqliteCatalogue.js';

/** Where a file descriptor points; '' once it is closed. */
function readlinkOr(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '';
  }
}

function row(url: string, depth: number, extra: Partial<NewUrl> = {}): NewUrl {
  return {
    url,
    site: new URL(url).origin,
    depth,
    state: 'queued',
    requisite: false,
    parentId: null,
    via: 'a',
    typeHint: null,
    redirectHops: 0,
    skipReason: null,
    ...extra,
  };
}

describe('Catalogue', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-cat-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hands out a site queue breadth-first: by depth, then discovery order', () => {
    const c = Catalogue.open(path.join(dir, 'order.sqlite'));
    try {
      c.insert(row('http://a.test/deep', 2));
      c.insert(row('http://a.test/one', 1));
      c.insert(row('http://b.test/other-site', 0));
      c.insert(row('http://a.test/two', 1));
      c.insert(row('http://a.test/skipped', 0, { state: 'skipped', skipReason: 'scope' }));
      assert.deepEqual(
        c.nextQueued('http://a.test', 10).map((r) => r.url),
        ['http://a.test/one', 'http://a.test/two', 'http://a.test/deep'],
      );
      assert.deepEqual(c.sitesWithQueued().sort(), ['http://a.test', 'http://b.test']);
      assert.equal(c.countByState().skipped, 1);
      assert.deepEqual(c.countBySkipReason(), { scope: 1 });
    } finally {
      c.close();
    }
  });

  it('keeps statement journals in memory: a statement rewriting many rows in a transaction makes no temporary file', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
    const tempFiles = () => readdirSync('/proc/self/fd').filter((fd) => /etilqs_/.test(readlinkOr(`/proc/self/fd/${fd}`)));
    const before = tempFiles().length;
    const c = Catalogue.open(path.join(dir, 'journal.sqlite'));
    try {
      // The rows dirty some 40 pages; the UPDATE, which could fail half-way on the URLs' uniqueness,
      // journals each again, past the 64 KB SQLite keeps in memory without the pragma.
      c.transaction(() => {
        for (let i = 0; i < 3_000; i++) c.insert(row(`http://a.test/page-${i}-${'x'.repeat(40)}`, 1));
        c.sqlite.prepare("UPDATE urls SET url = url || '/'").run();
      });
      assert.equal(tempFiles().length, before);
    } finally {
      c.close();
    }
  });

  it('gives its writer a small page cache: the crawl appends, and what it reads again is in the file cache', () => {
    const file = path.join(dir, 'cache.sqlite');
    const c = Catalogue.open(file);
    try {
      assert.equal(c.sqlite.pragma('cache_size', { simple: true }), -WRITER_CACHE_KIB);
      // better-sqlite3's build makes every other connection's 16 MB.
      assert.ok(WRITER_CACHE_KIB < 16_000);
    } finally {
      c.close();
    }
  });

  it('keeps each canonical URL once', () => {
    const c = Catalogue.open(path.join(dir, 'unique.sqlite'));
    try {
      c.insert(row('http://a.test/x', 0));
      assert.throws(() => c.insert(row('http://a.test/x', 1)));
    } finally {
      c.close();
    }
  });

  it('reads rows back with every value as written, the shared ones included', () => {
    const file = path.join(dir, 'rows.sqlite');
    const written = Catalogue.open(file);
    const urls = Array.from({ length: 40 }, (_, i) => `http://site${i % 3}.test/p${i}`);
    try {
      for (const [i, url] of urls.entries()) {
        const r = written.insert(row(url, 1, i % 4 === 0 ? { state: 'skipped', skipReason: 'scope' } : { typeHint: i % 2 ? 'html' : 'css' }));
        if (i % 4 !== 0) {
          written.recordOutcome(r, {
            state: 'archived',
            httpStatus: 200,
            contentType: `text/html; charset=x-${i}`,
            bytes: i,
            localPath: `site/p${i}.html`,
            redirectToId: null,
            error: null,
            title: null,
          });
        }
      }
    } finally {
      written.close();
    }
    const read = Catalogue.open(file);
    try {
      for (const [i, url] of urls.entries()) {
        const r = read.lookup(url)!;
        assert.equal(r.url, url);
        assert.equal(r.site, new URL(url).origin);
        assert.deepEqual(
          [r.state, r.skip_reason, r.type_hint, r.content_type, r.local_path],
          i % 4 === 0 ? ['skipped', 'scope', null, null, null] : ['archived', null, i % 2 ? 'html' : 'css', `text/html; charset=x-${i}`, `site/p${i}.html`],
        );
      }
    } finally {
      read.close();
    }
  });

  it('counts distinct query strings per key', () => {
    const c = Catalogue.open(path.join(dir, 'qv.sqlite'));
    try {
      assert.equal(c.bumpQueryVariant('http://a.test/cal'), 1);
      assert.equal(c.bumpQueryVariant('http://a.test/cal'), 2);
      assert.equal(c.bumpQueryVariant('http://a.test/other'), 1);
    } finally {
      c.close();
    }
  });

  it('cannot be opened by a second process while open, and can be once closed', () => {
    const file = path.join(dir, 'locked.sqlite');
    const c = Catalogue.open(file);
    const modulePath = new URL('../../../electron/engine/store/catalogue.js', import.meta.url).href;
    const probe = `import { Catalogue } from '${modulePath}';
      try { Catalogue.open(process.argv[1]).close(); console.log('opened'); } catch (e) { console.log(e.name); }`;
    const run = () => spawnSync(process.execPath, ['--input-type=module', '-e', probe, file], { encoding: 'utf8' }).stdout.trim();
    try {
      // Asking, and reading, from the process that holds it keeps it held (a file lock is dropped
      // when any of the process's descriptors of the file closes, unless SQLite keeps them).
      assert.equal(Catalogue.isBeingWritten(file), true);
      Catalogue.open(file, { readonly: true }).close();
      assert.equal(run(), new ArchiveInUseError(file).name);
    } finally {
      c.close();
    }
    assert.equal(run(), 'opened');
  });

  it('is read, read-only, while a writer holds it, and takes one writer at a time', () => {
    const file = path.join(dir, 'shared.sqlite');
    const writer = Catalogue.open(file);
    try {
      writer.setMeta('state', 'running');
      assert.equal(Catalogue.isBeingWritten(file), true);
      assert.throws(() => Catalogue.open(file), ArchiveInUseError);
      const reader = Catalogue.open(file, { readonly: true });
      try {
        assert.equal(reader.getMeta('state'), 'running');
        // Past a checkpoint too: a reader's next read sees the writer's later commits.
        writer.setMeta('state', 'finished');
        writer.checkpoint();
        assert.equal(reader.getMeta('state'), 'finished');
      } finally {
        reader.close();
      }
    } finally {
      writer.close();
    }
    assert.equal(Catalogue.isBeingWritten(file), false);
    const again = Catalogue.open(file);
    again.close();
  });

  it('keeps the first capture of each payload digest, across reopening', () => {
    const file = path.join(dir, 'captures.sqlite');
    const first = { url: 'http://a.test/logo.png', date: new Date('2026-01-02T03:04:05Z'), recordId: '<urn:uuid:1>' };
    let c = Catalogue.open(file);
    try {
      assert.equal(c.captureByDigest('sha256:AAAA'), null);
      c.putCapture('sha256:AAAA', first);
      c.putCapture('sha256:AAAA', { url: 'http://a.test/copy.png', date: new Date(), recordId: '<urn:uuid:2>' });
    } finally {
      c.close();
    }
    c = Catalogue.open(file);
    try {
      assert.deepEqual(c.captureByDigest('sha256:AAAA'), first);
      assert.equal(c.captureByDigest('sha256:BBBB'), null);
    } finally {
      c.close();
    }
  });

  it('keeps where a capture\'s response record is', () => {
    const c = Catalogue.open(path.join(dir, 'capture-place.sqlite'));
    try {
      const capture = { url: 'http://a.test/', date: new Date('2026-01-02T03:04:05Z'), recordId: '<urn:uuid:3>', place: { file: 'a.warc.gz', offset: 1234, length: 567 } };
      c.putCapture('sha256:CCCC', capture);
      assert.deepEqual(c.captureByDigest('sha256:CCCC'), capture);
    } finally {
      c.close();
    }
  });

  it('keeps one place for a document\'s original: the last one put', () => {
    const c = Catalogue.open(path.join(dir, 'originals.sqlite'));
    try {
      const record = { file: 'a.warc.gz', offset: 10, length: 20 };
      assert.equal(c.getOriginal(1), undefined);
      c.putOriginal(1, 'text/html', { packed: Buffer.from('deflated') });
      c.putOriginal(1, 'text/html', { record, contentEncoding: 'gzip' });
      assert.deepEqual(c.getOriginal(1), { record, contentEncoding: 'gzip' });
      c.putOriginal(1, 'text/html', { packed: Buffer.from('again') });
      assert.deepEqual(c.getOriginal(1), { packed: Buffer.from('again') });
    } finally {
      c.close();
    }
  });

  it('upgrades a schema version 1 archive in place, and reads one opened read-only', () => {
    const file = path.join(dir, 'v1.sqlite');
    const db = new Database(file);
    db.exec(SCHEMA_V1);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '1')").run();
    db.prepare("INSERT INTO payload_captures (digest, url, date, record_id) VALUES ('sha256:OLD', 'http://a.test/', '2025-01-01T00:00:00.000Z', '<urn:uuid:4>')").run();
    db.prepare("INSERT INTO urls (url, site, depth, state) VALUES ('http://a.test/', 'http://a.test', 0, 'archived')").run();
    db.close();

    const readOnly = Catalogue.open(file, { readonly: true });
    try {
      assert.equal(readOnly.countByState().archived, 1);
      assert.equal(readOnly.getMeta('schema_version'), '1', 'a read-only open changes nothing');
    } finally {
      readOnly.close();
    }

    const c = Catalogue.open(file);
    try {
      assert.equal(c.getMeta('schema_version'), String(SCHEMA_VERSION));
      c.setAttempts(1, 2);
      assert.deepEqual(c.nextRetry('http://a.test', 5), [], 'an archived URL is not waiting for a retry');
      // Version 5's score column and best-first index came with the upgrade.
      c.insert({ url: 'http://a.test/b', site: 'http://a.test', depth: 1, state: 'queued', requisite: false, parentId: 1, via: 'a', typeHint: 'html', redirectHops: 0, skipReason: null, score: 0.5 });
      assert.deepEqual(c.nextQueuedBest('http://a.test', 5).map((r) => [r.url, r.score]), [['http://a.test/b', 0.5]]);
      // A capture saved by version 1 has no place; a new one has.
      assert.deepEqual(c.captureByDigest('sha256:OLD'), { url: 'http://a.test/', date: new Date('2025-01-01T00:00:00.000Z'), recordId: '<urn:uuid:4>' });
      c.putOriginal(1, 'text/html', { record: { file: 'a.warc.gz', offset: 0, length: 1 }, contentEncoding: null });
      assert.deepEqual(c.getOriginal(1), { record: { file: 'a.warc.gz', offset: 0, length: 1 }, contentEncoding: null });
    } finally {
      c.close();
    }
  });

  it('adds the attempts column to an archive that lacks it whatever version it records, so upgrades merged in either order meet', () => {
    const file = path.join(dir, 'no-attempts.sqlite');
    const db = new Database(file);
    db.exec(SCHEMA_V1);
    db.exec('ALTER TABLE payload_captures ADD COLUMN file TEXT; ALTER TABLE payload_captures ADD COLUMN offset INTEGER; ALTER TABLE payload_captures ADD COLUMN length INTEGER;');
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    db.prepare("INSERT INTO urls (url, site, depth, state) VALUES ('http://a.test/x', 'http://a.test', 1, 'queued')").run();
    db.close();
    const c = Catalogue.open(file);
    try {
      assert.equal(c.nextQueued('http://a.test', 5).length, 1);
      c.setAttempts(1, 1);
      assert.deepEqual(c.nextQueued('http://a.test', 5), [], 'a URL waiting for a retry is not in the ordinary queue');
      assert.deepEqual(
        c.nextRetry('http://a.test', 5).map((r) => [r.url, r.attempts]),
        [['http://a.test/x', 1]],
      );
    } finally {
      c.close();
    }
  });

  it('takes a site best-first by score, then discovery, and raises a queued score only upwards', () => {
    const c = Catalogue.open(path.join(dir, 'best.sqlite'));
    try {
      const add = (url: string, score: number | null, state: 'queued' | 'skipped' = 'queued') =>
        c.insert({ url, site: 'http://b.test', depth: 1, state, requisite: false, parentId: null, via: 'a', typeHint: 'html', redirectHops: 0, skipReason: state === 'skipped' ? 'scope' : null, score });
      const low = add('http://b.test/low', 0.2);
      add('http://b.test/l1', 1.3);
      add('http://b.test/mid', 0.5);
      add('http://b.test/skipped', 2.0, 'skipped');
      add('http://b.test/mid2', 0.5);
      assert.deepEqual(c.nextQueuedBest('http://b.test', 10).map((r) => r.url), ['http://b.test/l1', 'http://b.test/mid', 'http://b.test/mid2', 'http://b.test/low']);
      assert.equal(c.raiseScore(low.id, 0.1), false);
      assert.equal(c.raiseScore(low.id, 0.9), true);
      assert.deepEqual(c.nextQueuedBest('http://b.test', 2).map((r) => r.url), ['http://b.test/l1', 'http://b.test/low']);
      // Breadth-first order is untouched by scores.
      assert.deepEqual(c.nextQueued('http://b.test', 10).map((r) => r.url), ['http://b.test/low', 'http://b.test/l1', 'http://b.test/mid', 'http://b.test/mid2']);
    } finally {
      c.close();
    }
  });

  it('refuses an archive of a newer schema version', () => {
    const file = path.join(dir, 'future.sqlite');
    const db = new Database(file);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '99');");
    db.close();
    assert.throws(() => Catalogue.open(file), (e: unknown) => e instanceof ArchiveFormatError && /schema version 99/.test(e.message));
  });
});

/** The tables as schema version 1 created them. */
const SCHEMA_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE urls (
  id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, site TEXT NOT NULL, depth INTEGER NOT NULL, state TEXT NOT NULL,
  requisite INTEGER NOT NULL DEFAULT 0, parent_id INTEGER, via TEXT, type_hint TEXT, redirect_hops INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER, content_type TEXT, bytes INTEGER, local_path TEXT, redirect_to_id INTEGER, skip_reason TEXT,
  error TEXT, title TEXT, fetched_at TEXT
);
CREATE INDEX urls_queue ON urls (site, depth, id) WHERE state = 'queued';
CREATE TABLE links (from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT, written TEXT);
CREATE INDEX links_from ON links (from_id);
CREATE TABLE query_variants (key TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE robots (site TEXT PRIMARY KEY, http_status INTEGER, body TEXT, error TEXT, fetched_at TEXT NOT NULL);
CREATE TABLE originals (url_id INTEGER PRIMARY KEY, content_type TEXT, body BLOB NOT NULL);
CREATE TABLE payload_captures (digest TEXT PRIMARY KEY, url TEXT NOT NULL, date TEXT NOT NULL, record_id TEXT NOT NULL);
`;
