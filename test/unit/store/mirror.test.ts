import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Mirror } from '../../../electron/engine/store/mirror.js';

describe('Mirror.writeSync', () => {
  let dir: string;
  let mirror: Mirror;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-mirror-'));
    mirror = new Mirror(path.join(dir, 'mirror'), path.join(dir, '.partial'));
    mirror.discardPartialWrites();
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a new file, creating its folders', () => {
    mirror.writeSync('site/a/b/page.html', '<p>first</p>');
    assert.equal(readFileSync(path.join(dir, 'mirror/site/a/b/page.html'), 'utf8'), '<p>first</p>');
  });

  it('replaces an existing file whole, leaving no temporary file behind', () => {
    mirror.writeSync('site/shared.html', 'x'.repeat(10_000));
    mirror.writeSync('site/shared.html', new TextEncoder().encode('short'));
    assert.equal(readFileSync(path.join(dir, 'mirror/site/shared.html'), 'utf8'), 'short');
    assert.deepEqual(readdirSync(path.join(dir, '.partial')), []);
  });

  it("reports a name taken by a folder with the file system's code, and writes nothing", () => {
    mkdirSync(path.join(dir, 'mirror/site/taken'), { recursive: true });
    assert.throws(() => mirror.writeSync('site/taken', 'data'), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
    assert.deepEqual(readdirSync(path.join(dir, '.partial')), []);
  });
});
