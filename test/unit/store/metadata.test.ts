import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';
import { readMetadata, writeMetadata } from '../../../electron/engine/store/metadata.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-meta-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('metadata is empty until written, then survives reopening', () => {
  const file = path.join(dir, 'c.sqlite');
  let c = Catalogue.open(file);
  assert.equal(readMetadata(c).title, '');
  assert.deepEqual(readMetadata(c).subject, []);
  writeMetadata(c, { title: '  Library website, 2026 ', subject: ['universities'], language: ['en'] });
  c.close();
  c = Catalogue.open(file, { readonly: true });
  const m = readMetadata(c);
  assert.equal(m.title, 'Library website, 2026');
  assert.deepEqual(m.subject, ['universities']);
  assert.equal(m.rights, '');
  c.close();
});

test('invalid metadata is refused and the stored value kept', () => {
  const c = Catalogue.open(path.join(dir, 'd.sqlite'));
  writeMetadata(c, { title: 'kept' });
  assert.throws(() => writeMetadata(c, { title: 'x', unknownField: 1 } as never));
  assert.equal(readMetadata(c).title, 'kept');
  c.close();
});
