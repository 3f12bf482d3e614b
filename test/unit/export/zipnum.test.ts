import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { writeCompressedIndex } from '../../../electron/engine/export/zipnum.js';

describe('writeCompressedIndex', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-zipnum-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('writes gzip blocks that a reader finds through the .idx by key, offset, length and digest', async () => {
    const lines = Array.from(
      { length: 7_001 },
      (_, i) => `org,example)/p/${String(i).padStart(5, '0')} 20260101000000 {"url":"http://example.org/p/${i}"}`,
    );
    const sorted = path.join(work, 'index.cdx');
    writeFileSync(sorted, lines.join('\n') + '\n');
    const gz = path.join(work, 'index.cdx.gz');
    const idx = path.join(work, 'index.idx');
    await writeCompressedIndex(sorted, gz, idx, 'index.cdx.gz');

    const [meta, ...blocks] = readFileSync(idx, 'utf8').trim().split('\n');
    assert.equal(meta, '!meta 0 {"format":"cdxj-gzip-1.0","filename":"index.cdx.gz"}');
    assert.equal(blocks.length, 3, '3000 lines a block');
    const data = readFileSync(gz);
    const unpacked: string[] = [];
    let expectedOffset = 0;
    for (const b of blocks) {
      const cut = b.indexOf(' {');
      const prefix = b.slice(0, cut);
      const { offset, length, digest, filename } = JSON.parse(b.slice(cut + 1)) as { offset: number; length: number; digest: string; filename: string };
      assert.equal(filename, 'index.cdx.gz');
      assert.equal(offset, expectedOffset);
      const member = data.subarray(offset, offset + length);
      assert.equal(digest, `sha256:${createHash('sha256').update(member).digest('hex')}`);
      const blockLines = gunzipSync(member).toString('utf8').trim().split('\n');
      assert.equal(blockLines[0]!.slice(0, blockLines[0]!.indexOf(' {')), prefix, 'the idx key is the block’s first key');
      unpacked.push(...blockLines);
      expectedOffset += length;
    }
    assert.equal(expectedOffset, data.length);
    assert.deepEqual(unpacked, lines);
  });
});
