/**
 * Reading other tools' WARC files: plain, gzipped a member per record, several records to a member;
 * a damaged or truncated record is reported with its offset and reading goes on after it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { readWarcRecords, type SourceItem } from '../../../electron/engine/import/warcRecords.js';

const record = (id: number, body = `body of record ${id}`) =>
  Buffer.from(`WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:test:${id}>\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}\r\n\r\n`);

async function readAll(file: string): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readWarcRecords(file)) items.push(item);
  return items;
}

const ids = (items: SourceItem[]) => items.map((i) => (i.kind === 'record' ? /urn:test:(\d+)/.exec(i.content.toString())![1] : `damage@${i.offset}`));

describe('import: reading WARC records', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-warc-records-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(work, name);
    writeFileSync(file, bytes);
    return file;
  };

  it('reads a plain WARC, skipping a record whose Content-Length is wrong, and reports a truncated last one', async () => {
    const bad = Buffer.from(record(2).toString().replace(/Content-Length: \d+/, 'Content-Length: 5'));
    const last = record(4).subarray(0, 40);
    const parts = [record(1), bad, record(3), last];
    const items = await readAll(write('plain.warc', Buffer.concat(parts)));
    const badAt = parts[0]!.length;
    const lastAt = badAt + bad.length + parts[2]!.length;
    assert.deepEqual(ids(items), ['1', `damage@${badAt}`, '3', `damage@${lastAt}`]);
    assert.match((items[1] as { why: string }).why, /Content-Length/);
    assert.match((items[3] as { why: string }).why, /truncated/);
    assert.equal((items[0] as { member: Buffer | null }).member, null);
  });

  it('keeps each gzip member as the file has it, skips a corrupt member and reports a truncated tail', async () => {
    const members = [1, 2, 3].map((id) => gzipSync(record(id)));
    const corrupt = Buffer.from(members[1]!);
    corrupt[corrupt.length - 6] = corrupt[corrupt.length - 6]! ^ 0xff; // its CRC no longer matches
    const torn = gzipSync(record(4)).subarray(0, 20);
    const items = await readAll(write('members.warc.gz', Buffer.concat([members[0]!, corrupt, members[2]!, torn])));
    assert.deepEqual(ids(items), ['1', `damage@${members[0]!.length}`, '3', `damage@${members[0]!.length * 3}`]);
    const first = items[0] as { member: Buffer | null; content: Buffer };
    assert.deepEqual(first.member, members[0], 'the member is copied byte for byte');
    assert.deepEqual(first.content, record(1));
  });

  it('splits a member holding several records, each without a member of its own', async () => {
    const items = await readAll(write('one-member.warc.gz', Buffer.concat([gzipSync(Buffer.concat([record(1), record(2)])), gzipSync(record(3))])));
    assert.deepEqual(ids(items), ['1', '2', '3']);
    assert.equal((items[0] as { member: Buffer | null }).member, null);
    assert.notEqual((items[2] as { member: Buffer | null }).member, null);
  });
});
