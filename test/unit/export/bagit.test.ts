import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
    // RFC 8493's SHOULD: SHA-512 unless asked otherwise.
    const sha512 = createHash('sha512').update('stand-in WACZ bytes').digest('hex');
    assert.equal(readFileSync(path.join(out, 'manifest-sha512.txt'), 'utf8'), `${sha512}  data/lib.wacz\n`);
    assert.deepEqual(readdirSync(out).filter((n) => n.includes('manifest')).sort(), ['manifest-sha512.txt', 'tagmanifest-sha512.txt']);
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

test('sha256 stays available: alone, or beside sha512 with a manifest and a tag manifest each, and verify checks both', async () => {
  const a = Archive.create(path.join(dir, 'a3'), parseJob({ seeds: ['http://127.0.0.1:9/'] }));
  try {
    const both = path.join(dir, 'both.bag');
    await bagitExporter(tinyWacz)(a, both, { metadata, bagAlgorithms: ['sha512', 'sha256'] });
    assert.deepEqual(readdirSync(both).filter((n) => n.includes('manifest')).sort(), [
      'manifest-sha256.txt',
      'manifest-sha512.txt',
      'tagmanifest-sha256.txt',
      'tagmanifest-sha512.txt',
    ]);
    const sha256 = createHash('sha256').update('stand-in WACZ bytes').digest('hex');
    assert.equal(readFileSync(path.join(both, 'manifest-sha256.txt'), 'utf8'), `${sha256}  data/both.wacz\n`);
    const tags = readFileSync(path.join(both, 'tagmanifest-sha256.txt'), 'utf8');
    assert.deepEqual(tags.split('\n').filter(Boolean).map((l) => l.split('  ')[1]).sort(), ['bag-info.txt', 'bagit.txt', 'manifest-sha256.txt', 'manifest-sha512.txt']);
    assert.equal((await verify(both)).ok, true);
    // A changed payload byte fails under each algorithm.
    writeFileSync(path.join(both, 'data', 'both.wacz'), 'stand-in WACZ bytez');
    const r = await verify(both);
    assert.deepEqual(r.problems.map((p) => p.kind), ['altered']);
    assert.match(r.problems[0]!.detail, /sha256 is .*; sha512 is /);

    const only256 = path.join(dir, 'only256.bag');
    await bagitExporter(tinyWacz)(a, only256, { metadata, bagAlgorithms: ['sha256'] });
    assert.deepEqual(readdirSync(only256).filter((n) => n.includes('manifest')).sort(), ['manifest-sha256.txt', 'tagmanifest-sha256.txt']);
    assert.equal((await verify(only256)).ok, true);
  } finally {
    a.close();
  }
});

test("a bag's mirror gets its index.html written afresh from the description given", async () => {
  const a = Archive.create(path.join(dir, 'a4'), parseJob({ seeds: ['http://127.0.0.1:9/'] }));
  try {
    writeFileSync(path.join(a.mirror.root, 'index.html'), '<title>Untitled harvest</title>');
    const out = path.join(dir, 'described.bag');
    await bagitExporter(tinyWacz)(a, out, { metadata: DublinCoreSchema.parse({ title: 'Law school website' }), includeMirror: true });
    assert.match(readFileSync(path.join(out, 'data', 'mirror', 'index.html'), 'utf8'), /<h1>Law school website<\/h1>/);
    assert.equal((await verify(out)).ok, true);
  } finally {
    a.close();
  }
});
