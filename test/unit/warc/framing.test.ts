import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { scanGzipMembers } from '../../../electron/engine/warc/gzipMembers.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { exchange, noise, tempDir, warcFiles } from './fixtures.js';

const CRLF2 = Buffer.from('\r\n\r\n');

describe('WARC record framing, byte for byte', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('makes each gzip member one record: head, blank line, Content-Length bytes of block, then \\r\\n\\r\\n', async () => {
    const w = await WarcWriter.open({ dir, prefix: 'harvest', software: 'test' });
    await w.writeExchange(exchange('http://lib.test/', { payload: Buffer.from('<p>home</p>') }));
    await w.writeExchange(exchange('http://lib.test/copy', { payload: Buffer.from('<p>home</p>') })); // a revisit
    await w.writeExchange(exchange('http://lib.test/empty', { status: 204, statusText: 'No Content', payload: Buffer.alloc(0) }));
    await w.writeExchange(exchange('http://lib.test/big.bin', { payload: noise('big', 300_000), responseHeaders: [['Content-Type', 'image/png']] }));
    const at = await w.writeExchange(exchange('http://lib.test/x', { payload: Buffer.from('x') }));
    await w.writeMetadata({ url: 'http://lib.test/x', date: new Date(), concurrentTo: at.recordId, outlinks: [{ url: 'http://lib.test/', kind: 'L a/@href' }] });
    await w.close();

    const file = path.join(dir, warcFiles(dir)[0]!);
    const bytes = readFileSync(file);
    const members: Buffer[] = [];
    const fh = await open(file, 'r');
    try {
      const scan = await scanGzipMembers(fh, (m) => void members.push(bytes.subarray(m.offset, m.offset + m.length)));
      assert.equal(scan.end, bytes.length, 'members tile the file');
    } finally {
      await fh.close();
    }
    // warcinfo, then response+request per exchange (the revisit too), then the metadata record.
    assert.equal(members.length, 1 + 5 * 2 + 1);
    for (const [i, member] of members.entries()) {
      const record = gunzipSync(member);
      const headEnd = record.indexOf(CRLF2);
      const head = record.subarray(0, headEnd).toString('utf8');
      assert.match(head, /^WARC\/1\.1\r\n/, `record ${i}`);
      const length = Number(/\r\nContent-Length: (\d+)(\r\n|$)/.exec(head)![1]);
      const blockStart = headEnd + CRLF2.length;
      assert.equal(record.length, blockStart + length + CRLF2.length, `record ${i}: head + Content-Length + 4 bytes`);
      assert.deepEqual(record.subarray(blockStart + length), CRLF2, `record ${i} ends with \\r\\n\\r\\n`);
      // Exactly one record per member: recompressing the record alone gives the same content back.
      assert.deepEqual(gunzipSync(gzipSync(record)), record);
    }
  });
});
