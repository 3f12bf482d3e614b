import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ArchiveInUseError, Catalogue, type NewUrl } from '../../../electron/engine/store/catalogue.js';

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

  it('keeps each canonical URL once', () => {
    const c = Catalogue.open(path.join(dir, 'unique.sqlite'));
    try {
      c.insert(row('http://a.test/x', 0));
      assert.throws(() => c.insert(row('http://a.test/x', 1)));
    } finally {
      c.close();
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
      assert.equal(run(), new ArchiveInUseError(file).name);
    } finally {
      c.close();
    }
    assert.equal(run(), 'opened');
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
});
