import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { compareCapture, type CaptureFacts } from '../../../electron/engine/store/captureOutcome.js';
import { Catalogue, type UrlCapture } from '../../../electron/engine/store/catalogue.js';
import { SCHEMA_VERSION } from '../../../electron/engine/store/schema.js';

const page = (digest: string, text: string | null, status = 200): CaptureFacts => ({ outcome: 'new', httpStatus: status, payloadDigest: digest, textDigest: text });
const answer = (digest: string | null, text: string | null, status: number | null = 200, notModified = false) => ({ httpStatus: status, payloadDigest: digest, textDigest: text, notModified });

describe('capture outcomes', () => {
  it('compares an answer with the previous capture', () => {
    assert.equal(compareCapture(undefined, answer('a', 't')), 'new');
    assert.equal(compareCapture(page('a', 't'), answer('a', 't')), 'unchanged');
    assert.equal(compareCapture(page('a', 't'), answer('a', 't', 304, true)), 'not-modified');
    assert.equal(compareCapture(page('a', 't'), answer('b', 't')), 'markup-only');
    assert.equal(compareCapture(page('a', 't'), answer('b', 'u')), 'changed');
    assert.equal(compareCapture(page('a', null), answer('b', null)), 'changed', 'without text digests a new payload is a change');
    assert.equal(compareCapture(page('a', 't'), answer('x', null, 404)), 'removed');
    assert.equal(compareCapture(page('a', 't'), answer('x', null, 410)), 'removed');
    assert.equal(compareCapture(page('a', 't'), answer('x', null, 500)), 'http-error', 'a server error is no removal');
    assert.equal(compareCapture(page('a', 't'), answer(null, null, null)), 'failed');
    assert.equal(compareCapture(page('x', null, 404), answer('x', null, 404)), 'http-error', 'a broken link that stays broken is an HTTP error, as stats count it');
    assert.equal(compareCapture(undefined, answer('x', null, 404)), 'http-error');
    assert.equal(compareCapture(page('x', null, 404), answer('a', 't')), 'new', 'an error before, content now');
    assert.equal(compareCapture({ ...page('a', 't'), outcome: 'removed' }, answer('a', 't')), 'restored', 'back after being removed');
    assert.equal(compareCapture(page('a', null, 200), answer('a', null, 301)), 'changed', 'now a redirect');
  });
});

describe('captures in the catalogue', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-captures-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const row = (c: Catalogue, urlId: number, capture: number, outcome: UrlCapture['outcome'], digest: string | null, status: number | null = 200): void =>
    c.putUrlCapture({
      urlId, capture, outcome, httpStatus: status, contentType: 'text/html', bytes: 10, payloadDigest: digest, textDigest: digest,
      localPath: `p${urlId}.html`, etag: null, lastModified: null, record: null, contentEncoding: null, fetchedAt: new Date().toISOString(),
      timing: status === null ? null : { requestedAt: '2026-11-25T10:00:00.000Z', headersMs: 12.4, durationMs: 30.6 },
    });

  it('starts captures, marks what a capture did not reach removed, and compares any two captures', () => {
    const c = Catalogue.open(path.join(dir, 'c.sqlite'));
    try {
      const urls = ['a', 'b', 'c', 'd'].map((x) => c.insert({ url: `http://s.test/${x}`, site: 'http://s.test', depth: 0, state: 'queued', requisite: false, parentId: null, via: null, typeHint: null, redirectHops: 0, skipReason: null }));
      c.ensureCapture(new Date());
      for (const u of urls) row(c, u.id, 1, 'new', `v1-${u.id}`);
      c.setMeta('state', 'finished');
      assert.equal(c.beginCapture(new Date()), 2);
      assert.equal(c.lookup('http://s.test/a')!.capture, 1, 'a row of the earlier capture until met again');
      assert.equal(c.countByState().queued, 0, 'the new capture counts only what it met');
      row(c, urls[0]!.id, 2, 'unchanged', `v1-${urls[0]!.id}`);
      row(c, urls[1]!.id, 2, 'changed', 'v2-b');
      // c and d were not reached.
      assert.equal(c.markUnreachedRemoved(new Date()), 2);
      c.endCaptureRun('finished', 1000, new Date());
      c.setMeta('state', 'finished');
      c.beginCapture(new Date());
      row(c, urls[0]!.id, 3, 'changed', 'v3-a');
      row(c, urls[1]!.id, 3, 'unchanged', 'v2-b');
      row(c, urls[2]!.id, 3, 'new', 'v1-3');
      assert.equal(c.markUnreachedRemoved(new Date()), 0, 'd was removed already');

      const latest = c.changes({});
      assert.deepEqual([latest.capture, latest.previous], [3, 2]);
      assert.deepEqual(latest.changed, ['http://s.test/a']);
      assert.deepEqual(latest.new, ['http://s.test/c']);
      assert.equal(latest.counts.unchanged, 1);
      const since1 = c.changes({ since: 1 });
      assert.deepEqual(since1.changed.sort(), ['http://s.test/a', 'http://s.test/b']);
      assert.deepEqual(since1.new, [], 'c is unchanged since capture 1, where it was');
      assert.equal(since1.counts.unchanged, 1);
      assert.deepEqual(since1.removed, ['http://s.test/d']);
      assert.deepEqual(c.changes({ capture: 2, limit: 1 }).removed, ['http://s.test/c']);
      assert.equal(c.changes({ capture: 2, limit: 1 }).counts.removed, 2, 'counts are never capped');
      // Lists page with an offset, between consecutive captures and any two.
      assert.deepEqual(c.changes({ capture: 2, offset: 1, limit: 1 }).removed, ['http://s.test/d']);
      assert.deepEqual(c.changes({ capture: 2, offset: 2, limit: 1 }).removed, []);
      assert.deepEqual(c.changes({ since: 1, offset: 1, limit: 1 }).changed, ['http://s.test/b']);
      assert.deepEqual(c.changes({ since: 1, offset: 0, limit: 1 }).changed, ['http://s.test/a']);
      assert.equal(c.changes({ since: 1, offset: 5, limit: 1 }).counts.changed, 2);
      assert.deepEqual(c.listCaptures().map((k) => [k.id, k.counts.removed]), [[1, 0], [2, 2], [3, 0]]);
      assert.deepEqual(c.capturesOf('http://s.test/d').map((k) => k.outcome), ['new', 'removed']);
      // Each answer's timing is kept with its capture, whole milliseconds; a removed URL had no request.
      assert.deepEqual(c.capturesOf('http://s.test/d').map((k) => k.timing), [{ requestedAt: '2026-11-25T10:00:00.000Z', headersMs: 12, durationMs: 31 }, null]);
      assert.deepEqual(c.urlFacts('http://s.test/a')?.timing, { requestedAt: '2026-11-25T10:00:00.000Z', headersMs: 12, durationMs: 31 });
    } finally {
      c.close();
    }
  });

  it('makes an archive of schema version 2 (made before captures) capture 1', () => {
    const file = path.join(dir, 'v2.sqlite');
    const c = Catalogue.open(file);
    c.close();
    // Back to version 2: the tables version 3 added, and the column, gone.
    const db = new Database(file);
    db.exec(`DROP TABLE captures; DROP TABLE url_captures; ALTER TABLE urls DROP COLUMN capture;
      UPDATE meta SET value = '2' WHERE key = 'schema_version';
      INSERT INTO meta VALUES ('state', 'finished'), ('started_at', '2025-01-01T00:00:00.000Z'), ('finished_at', '2025-01-01T01:00:00.000Z');
      INSERT INTO urls (url, site, depth, state, http_status, content_type, bytes, local_path, fetched_at) VALUES
        ('http://s.test/', 'http://s.test', 0, 'archived', 200, 'text/html', 5, 's/index.html', '2025-01-01T00:10:00.000Z'),
        ('http://s.test/gone', 'http://s.test', 1, 'http-error', 404, 'text/html', 3, NULL, '2025-01-01T00:11:00.000Z'),
        ('http://s.test/later', 'http://s.test', 1, 'skipped', NULL, NULL, NULL, NULL, NULL);
      INSERT INTO payload_captures (digest, url, date, record_id, file, offset, length) VALUES ('sha256:HOME', 'http://s.test/', '2025-01-01T00:10:00.000Z', '<urn:uuid:1>', 'a.warc.gz', 10, 20);`);
    db.close();
    const readOnly = Catalogue.open(file, { readonly: true });
    try {
      assert.equal(readOnly.countByState().archived, 1, 'an older archive still reads');
    } finally {
      readOnly.close();
    }
    const up = Catalogue.open(file);
    try {
      assert.equal(up.getMeta('schema_version'), String(SCHEMA_VERSION));
      assert.deepEqual(
        up.listCaptures().map((k) => [k.id, k.state, k.startedAt, k.counts.new, k.counts.httpErrors, k.counts.failed]),
        [[1, 'finished', '2025-01-01T00:00:00.000Z', 1, 1, 0]],
        "the old archive's 404 is counted an HTTP error",
      );
      const home = up.capturesOf('http://s.test/')[0]!;
      assert.deepEqual([home.payloadDigest, home.record, home.localPath], ['sha256:HOME', { file: 'a.warc.gz', offset: 10, length: 20 }, 's/index.html']);
      assert.equal(up.lookup('http://s.test/later')!.capture, 1);
    } finally {
      up.close();
    }
  });
});
