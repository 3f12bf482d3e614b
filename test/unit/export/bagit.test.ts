import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import { DublinCoreSchema } from '../../../shared/metadata.js';
import { bagitExporter } from '../../../electron/engine/export/bagit.js';
import type { Exporter } from '../../../electron/engine/export/types.js';
import { verify } from '../../../electron/engine/export/verify.js';
import { Archive } from '../../../electron/engine/store/archive.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-bagit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const metadata = DublinCoreSchema.parse({ title: 'Bag test' });

const tinyWacz: Exporter = async (_archive, outPath) => {
  writeFileSync(outPath, 'stand-in WACZ bytes');
  return { path: outPath, bytes: 19, files: 1 };
};

test('the WACZ exporter it is given fills data/, the manifests list it and the bag verifies', async () => {
  const a = Archive.create(path.join(dir, 'a1'), parseJob({ seeds: ['http://127.0.0.1:9/'] }));
  try {
    const out = path.join(dir, 'lib.bag');
    const r = await bagitExporter(tinyWacz)(a, out, { metadata });
    assert.deepEqual(r, { path: out, bytes: 19, files: 1 });
    assert.deepEqual(readdirSync(path.join(out, 'data')), ['lib.wacz']);
    assert.match(readFileSync(path.join(out, 'manifest-sha256.txt'), 'utf8'), /^[0-9a-f]{64} {2}data\/lib\.wacz\n$/);
    assert.match(readFileSync(path.join(out, 'bag-info.txt'), 'utf8'), /^Payload-Oxum: 19\.1$/m);
    assert.equal((await verify(out)).ok, true);
  } finally {
    a.close();
  }
});

test('a failing WACZ export leaves neither the bag nor its partial folder', async () => {
  const a = Archive.create(path.join(dir, 'a2'), parseJob({ seeds: ['http://127.0.0.1:9/'] }));
  try {
    const out = path.join(dir, 'broken-bag');
    const failing: Exporter = async (_archive, outPath) => {
      writeFileSync(outPath, 'half');
      throw new Error('disk full');
    };
    await assert.rejects(bagitExporter(failing)(a, out, { metadata, includeMirror: true }), /disk full/);
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(`${out}.partial`), false);
  } finally {
    a.close();
  }
});
