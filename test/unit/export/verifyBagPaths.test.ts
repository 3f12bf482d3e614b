import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { verify } from '../../../electron/engine/export/verify.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('verify: manifest paths that leave the bag', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-bag-paths-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('refuses ../outside.txt in the tag manifest without reading it', async () => {
    const outside = 'a file beside the bag, which verify must not open';
    writeFileSync(path.join(work, 'outside.txt'), outside);
    const bag = path.join(work, 'bag');
    mkdirSync(path.join(bag, 'data'), { recursive: true });
    writeFileSync(path.join(bag, 'data', 'a.txt'), 'payload');
    const bagit = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';
    const manifest = `${sha256('payload')}  data/a.txt\n`;
    writeFileSync(path.join(bag, 'bagit.txt'), bagit);
    writeFileSync(path.join(bag, 'manifest-sha256.txt'), manifest);
    // The digest is right, so only the path check can refuse it.
    writeFileSync(
      path.join(bag, 'tagmanifest-sha256.txt'),
      `${sha256(bagit)}  bagit.txt\n${sha256(manifest)}  manifest-sha256.txt\n${sha256(outside)}  ../outside.txt\n`,
    );
    const r = await verify(bag);
    assert.equal(r.ok, false);
    assert.deepEqual(r.problems, [{ kind: 'invalid', path: 'tagmanifest-sha256.txt', detail: "path '../outside.txt' leaves the bag" }]);
    // Hashed: the payload file and the two tag files, and not a byte of outside.txt.
    assert.equal(r.files, 3);
    assert.equal(r.bytes, 'payload'.length + bagit.length + manifest.length);
  });
});
