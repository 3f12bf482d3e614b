import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { scanGzipMembers, type GzipMember } from '../../../electron/engine/warc/gzipMembers.js';
import { noise, tempDir } from './fixtures.js';

describe('scanGzipMembers', () => {
  let dir: string;
  let n = 0;
  before(() => {
    dir = tempDir();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function scan(bytes: Buffer): Promise<{ members: GzipMember[]; end: number; size: number }> {
    const file = path.join(dir, `f${n++}.gz`);
    writeFileSync(file, bytes);
    const fh = await open(file, 'r');
    try {
      const members: GzipMember[] = [];
      const result = await scanGzipMembers(fh, (m) => members.push(m));
      return { members, ...result };
    } finally {
      await fh.close();
    }
  }

  const contents = [Buffer.from('first'), noise('big', 3 * 1024 * 1024), ...Array.from({ length: 300 }, (_, i) => Buffer.from(`small ${i}`))];
  const members = contents.map((c) => gzipSync(c));
  const whole = Buffer.concat(members);
  const offsets = members.map((_, i) => members.slice(0, i).reduce((s, m) => s + m.length, 0));

  it('finds every member, across read buffers, with where it lies and the start of its content', async () => {
    const r = await scan(whole);
    assert.deepEqual([r.end, r.size], [whole.length, whole.length]);
    assert.deepEqual(r.members.map((m) => [m.offset, m.length]), members.map((m, i) => [offsets[i], m.length]));
    assert.deepEqual(r.members[0]!.head, contents[0]);
    assert.deepEqual(r.members[1]!.head, contents[1]!.subarray(0, 64 * 1024), 'the head is capped');
    assert.deepEqual(r.members[301]!.head.toString(), 'small 299');
  });

  it('stops before a member cut short', async () => {
    const cutAt = offsets[200]! + 7;
    const r = await scan(whole.subarray(0, cutAt));
    assert.deepEqual([r.members.length, r.end, r.size], [200, offsets[200], cutAt]);
  });

  it('stops before a member whose data is cut inside the large member', async () => {
    const r = await scan(whole.subarray(0, offsets[1]! + 100_000));
    assert.deepEqual([r.members.length, r.end], [1, offsets[1]]);
  });

  it('stops at a member whose CRC does not match, even with good ones after it', async () => {
    const damaged = Buffer.from(whole);
    const trailer = offsets[3]! - 8;
    damaged[trailer] = damaged[trailer]! ^ 0xff;
    const r = await scan(damaged);
    assert.deepEqual([r.members.length, r.end], [2, offsets[2]]);
  });

  it('stops at bytes that are not a gzip member: zeros or garbage', async () => {
    const headerThenNoise = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]), noise('not deflate', 3000)]);
    for (const tail of [Buffer.alloc(4096), noise('garbage', 100), Buffer.from([0x1f, 0x8b, 0x08]), headerThenNoise]) {
      const r = await scan(Buffer.concat([whole, tail]));
      assert.deepEqual([r.members.length, r.end, r.size], [members.length, whole.length, whole.length + tail.length]);
    }
  });

  it('reads headers with the optional extra, name, comment and header-CRC fields', async () => {
    const content = Buffer.from('named member');
    const header = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 0x08, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 0xff]),
      Buffer.from([3, 0, 0xaa, 0xbb, 0xcc]),
      Buffer.from('file.warc\0comment\0'),
      Buffer.from([0x12, 0x34]),
    ]);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(content), 0);
    trailer.writeUInt32LE(content.length, 4);
    const member = Buffer.concat([header, deflateRawSync(content), trailer]);
    const r = await scan(Buffer.concat([member, members[0]!]));
    assert.deepEqual(r.members.map((m) => [m.offset, m.length, m.head.toString()]), [
      [0, member.length, 'named member'],
      [member.length, members[0]!.length, 'first'],
    ]);
  });

  it('finds nothing in an empty file', async () => {
    assert.deepEqual(await scan(Buffer.alloc(0)), { members: [], end: 0, size: 0 });
  });
});
