import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Catalogue, type NewUrl } from '../../../electron/engine/store/catalogue.js';

const row = (url: string): NewUrl => ({
  url,
  site: new URL(url).origin,
  depth: 1,
  state: 'queued',
  requisite: false,
  parentId: null,
  via: 'a',
  typeHint: null,
  redirectHops: 0,
  skipReason: null,
});

describe('Catalogue: a transaction rolled back', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'harvest-rollback-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves no trace in lookup(): the row inserted inside it is gone, a row changed inside it is as before', () => {
    const c = Catalogue.open(path.join(dir, 'c.sqlite'));
    try {
      const kept = c.insert(row('http://a.test/kept'));
      assert.throws(
        () =>
          c.transaction(() => {
            c.insert(row('http://a.test/new'));
            c.requeue(kept, 0, true);
            assert.ok(c.lookup('http://a.test/new'), 'visible inside the transaction');
            throw new Error('disk full');
          }),
        /disk full/,
      );
      assert.equal(c.lookup('http://a.test/new'), undefined);
      assert.equal(c.lookup('http://a.test/kept')?.depth, 1);
      // And the URL can be inserted again, as it never was.
      assert.equal(c.insert(row('http://a.test/new')).url, 'http://a.test/new');
    } finally {
      c.close();
    }
  });
});
